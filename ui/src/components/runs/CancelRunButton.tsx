import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ErrorNotice } from '../ErrorNotice';

/** Cancels a queued or running run; the live layer then shows it `cancelled`. */
export function CancelRunButton({ runId }: { runId: string }) {
  const cancel = useMutation({
    mutationFn: async () => api.POST('/api/heartbeat-runs/{runId}/cancel', { params: { path: { runId } } }),
  });
  return (
    <>
      <button
        type="button"
        className="danger"
        disabled={cancel.isPending || cancel.isSuccess}
        onClick={() => cancel.mutate()}
      >
        {cancel.isPending ? 'Cancelling…' : cancel.isSuccess ? 'Cancel requested' : 'Cancel run'}
      </button>
      {cancel.isError && <ErrorNotice error={cancel.error} title="The run could not be cancelled" />}
    </>
  );
}

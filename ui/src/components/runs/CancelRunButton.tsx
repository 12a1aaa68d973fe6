import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { X } from 'lucide-react';
import { ErrorNotice } from '../ErrorNotice';
import { Icon } from '../ui/Icon';

/**
 * Cancels a queued or running run; the live layer then shows it `cancelled`. With `iconLabel` it is
 * an icon button named by that label (dense rows such as the dashboard's live runs).
 */
export function CancelRunButton({ runId, iconLabel }: { runId: string; iconLabel?: string }) {
  const cancel = useMutation({
    mutationFn: async () => api.POST('/api/heartbeat-runs/{runId}/cancel', { params: { path: { runId } } }),
  });
  return (
    <>
      <button
        type="button"
        className={iconLabel ? 'danger icon-button' : 'danger'}
        disabled={cancel.isPending || cancel.isSuccess}
        onClick={() => cancel.mutate()}
        aria-label={iconLabel}
        title={iconLabel}
      >
        {iconLabel ? (
          <Icon icon={X} />
        ) : cancel.isPending ? (
          'Cancelling…'
        ) : cancel.isSuccess ? (
          'Cancel requested'
        ) : (
          'Cancel run'
        )}
      </button>
      {cancel.isError && <ErrorNotice error={cancel.error} title="The run could not be cancelled" />}
    </>
  );
}

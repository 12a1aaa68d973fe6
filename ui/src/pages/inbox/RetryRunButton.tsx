// Retry of a failed run: wakes its agent again about the same issue. The failure leaves the inbox
// once the new run exists (the server's rule); until then the button says what happened.
import { useMutation } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { InboxItem } from '../../queries/inbox';

/** What a retry needs of the failed run (an inbox item, or the run page's run). */
type RunItem = Pick<Extract<InboxItem, { kind: 'run' }>, 'agentId' | 'runId' | 'status' | 'error' | 'issueId'>;

export function RetryRunButton({ item }: { item: RunItem }) {
  const retry = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/agents/{agentId}/wakeup', {
          params: { path: { agentId: item.agentId } },
          body: {
            source: 'on_demand',
            triggerDetail: 'manual',
            reason:
              `Retry after run ${item.runId} ${item.status === 'timed_out' ? 'timed out' : 'failed'}${item.error ? `: ${item.error}` : ''}`.slice(
                0,
                1000,
              ),
            payload: { retryOfRunId: item.runId, ...(item.issueId && { issueId: item.issueId }) },
            idempotencyKey: `retry-${item.runId}`,
          },
        }),
      ),
  });
  const skipped = retry.data && 'skipped' in retry.data ? retry.data.reason : null;
  return (
    <>
      <button
        type="button"
        className="primary"
        onClick={() => retry.mutate()}
        disabled={retry.isPending || (retry.isSuccess && !skipped)}
      >
        {retry.isPending ? 'Retrying…' : retry.isSuccess && !skipped ? 'Retry queued' : 'Retry'}
      </button>
      {skipped && (
        <p className="notice notice-warning" role="status">
          The wake was skipped: {skipped.replaceAll('_', ' ')}.
        </p>
      )}
      {retry.isError && <ErrorNotice error={retry.error} title="Retry refused" />}
    </>
  );
}

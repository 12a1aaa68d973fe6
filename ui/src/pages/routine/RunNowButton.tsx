// "Run now": a manual run, decided at once by the server (issue created, joined, skipped or failed).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { companyKey } from '../../api/keys';
import { ErrorNotice } from '../../components/ErrorNotice';
import { runStatus, type RoutineDetail } from '../routines/model';

export function RunNowButton({ companyId, routine }: { companyId: string; routine: RoutineDetail }) {
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: async () => data(await api.POST('/api/routines/{routineId}/run', { params: { path: { routineId: routine.id } }, body: { source: 'manual' } })),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'routine', routine.id) }), queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'routines') })]),
  });
  return (
    <div className="routine-run-now">
      <button type="button" className="primary" disabled={run.isPending || routine.status === 'archived'} onClick={() => run.mutate()}>
        {run.isPending ? 'Running…' : 'Run now'}
      </button>
      <span role="status" className="muted">
        {run.data && `Last manual run: ${runStatus(run.data.status).label.toLowerCase()}${run.data.failureReason ? ` (${run.data.failureReason})` : ''}`}
      </span>
      {run.isError && <ErrorNotice error={run.error} title="The routine did not run" />}
    </div>
  );
}

// One routine: its settings and policies (explained in place), its triggers, "Run now" and its run
// history with the issue each run created or joined.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { routineStatuses } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { routineKeys, routineListKeys, routineQuery, type RoutineDetail } from '../../queries/routines';
import { PolicyFields } from '../routines/PolicyFields';
import { RunHistory } from './RunHistory';
import { RunNowButton } from './RunNowButton';
import { Triggers } from './Triggers';
import { WorkFields } from './WorkFields';
import { StatusPill } from '../../components/display/StatusPill';

type RoutinePatch = NonNullable<
  paths['/api/routines/{routineId}']['patch']['requestBody']
>['content']['application/json'];

export function RoutinePage() {
  const { companyId = '', routineId = '' } = useParams();
  const routine = useQuery(routineQuery(companyId, routineId));

  if (routine.isPending) return <Loading label="Loading routine" />;
  if (routine.isError)
    return (
      <div className="page">
        <PageHeader title="Routine" />
        <ErrorNotice error={routine.error} title="The routine could not be loaded" retry={() => routine.refetch()} />
        <Link to={`/c/${companyId}/routines`}>All routines</Link>
      </div>
    );
  return <RoutineView companyId={companyId} routine={routine.data} />;
}

function RoutineView({ companyId, routine }: { companyId: string; routine: RoutineDetail }) {
  const queryClient = useQueryClient();
  const { agents } = useAgentNames(companyId);
  const update = useMutation({
    mutationFn: async (body: RoutinePatch) =>
      data(await api.PATCH('/api/routines/{routineId}', { params: { path: { routineId: routine.id } }, body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: routineKeys.detail(companyId, routine.id) }),
  });
  const archived = routine.status === 'archived';
  const saveWork = useMutation({
    mutationFn: async (body: RoutinePatch) =>
      data(await api.PATCH('/api/routines/{routineId}', { params: { path: { routineId: routine.id } }, body })),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: routineKeys.detail(companyId, routine.id) }),
        queryClient.invalidateQueries({ queryKey: routineListKeys.all(companyId) }),
      ]),
  });

  return (
    <div className="page routine-page">
      <PageHeader title={routine.title} actions={<RunNowButton companyId={companyId} routine={routine} />}>
        <p className="routine-subtitle">
          <Link to={`/c/${companyId}/routines`}>Routines</Link>
          <StatusPill tone={routineStatuses.tone(routine.status)}>{routineStatuses.label(routine.status)}</StatusPill>
          {routine.activeExecutionIssue && (
            <span>
              Open issue:{' '}
              <Link to={`/c/${companyId}/issues/${routine.activeExecutionIssue.identifier}`}>
                {routine.activeExecutionIssue.identifier}
              </Link>
            </span>
          )}
        </p>
      </PageHeader>

      <section className="card routine-section" aria-labelledby="routine-work">
        <h2 id="routine-work">Work</h2>
        {/* Keyed by the saved values: a save (or a change elsewhere) starts the form from them again. */}
        <WorkFields
          key={JSON.stringify([routine.title, routine.description, routine.variables])}
          routine={routine}
          pending={saveWork.isPending}
          error={saveWork.error}
          onSave={(body) => saveWork.mutate(body)}
        />
      </section>

      <section className="card routine-section" aria-labelledby="routine-settings">
        <h2 id="routine-settings">Settings</h2>
        <div className="routine-settings">
          <div className="field">
            <label htmlFor="routine-status">Status</label>
            <Select
              id="routine-status"
              value={routine.status}
              disabled={archived || update.isPending}
              aria-describedby="routine-status-help"
              onChange={(status) => update.mutate({ status })}
              // Archived only shows an archived routine (the picker is then disabled): it is not offered here.
              options={routineStatuses.list
                .filter((status) => status !== 'archived' || archived)
                .map((status) => ({ value: status, label: routineStatuses.label(status) }))}
            />
            <span id="routine-status-help" className="hint">
              {archived
                ? 'Archived routines never fire again.'
                : 'Paused routines fire only when run by hand; on resuming, schedules restart from now.'}
            </span>
          </div>
          <div className="field">
            <label htmlFor="routine-agent">Agent</label>
            <Select
              id="routine-agent"
              value={routine.assigneeAgentId ?? ''}
              disabled={archived || update.isPending}
              searchPlaceholder="Find an agent…"
              onChange={(agentId) => update.mutate({ assigneeAgentId: agentId || null })}
              options={[
                { value: '', label: 'No one (pauses the routine)' },
                ...agents
                  .filter(
                    (agent) =>
                      agent.id === routine.assigneeAgentId ||
                      (agent.status !== 'terminated' && agent.status !== 'pending_approval'),
                  )
                  .map((agent) => ({ value: agent.id, label: agent.name })),
              ]}
            />
          </div>
        </div>
        <PolicyFields
          idPrefix="routine"
          concurrency={routine.concurrencyPolicy}
          catchUp={routine.catchUpPolicy}
          disabled={archived || update.isPending}
          onConcurrency={(concurrencyPolicy) => update.mutate({ concurrencyPolicy })}
          onCatchUp={(catchUpPolicy) => update.mutate({ catchUpPolicy })}
        />
        {update.isError && <ErrorNotice error={update.error} title="The change was not saved" />}
      </section>

      <Triggers companyId={companyId} routine={routine} />
      <RunHistory companyId={companyId} routineId={routine.id} />
    </div>
  );
}

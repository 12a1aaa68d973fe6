// The company's routines: what fires next and how the last run went; "New routine" creates one.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { fullTime, timeAgo } from '../../lib/format';
import { routineRunStatuses, routineStatuses } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { ROUTINES_LIMIT, routinesQuery, type RoutineListItem } from '../../queries/routines';
import { CreateRoutineDialog } from './CreateRoutineDialog';
import { nextFire, routinePath, SOURCE_LABELS } from './model';
import { StatusPill } from '../../components/display/StatusPill';

export function RoutinesPage() {
  const { companyId = '' } = useParams();
  const [creating, setCreating] = useState(false);
  const { nameOf } = useAgentNames(companyId);
  const routines = useQuery(routinesQuery(companyId));

  return (
    <div className="page">
      <PageHeader
        title="Routines"
        actions={
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New routine
          </button>
        }
      >
        <p className="muted">
          Recurring work for one agent, fired by a schedule, a webhook or an API call. Each run opens (or joins) an
          issue.
        </p>
      </PageHeader>
      <CreateRoutineDialog companyId={companyId} open={creating} onOpenChange={setCreating} />
      {routines.isPending ? (
        <Loading label="Loading routines" />
      ) : routines.isError ? (
        <ErrorNotice error={routines.error} title="Routines could not be loaded" retry={() => routines.refetch()} />
      ) : routines.data.length === 0 ? (
        <p className="routine-empty">
          No routines yet. Create one to have an agent do recurring work on a schedule, on a webhook or on demand.
        </p>
      ) : (
        <ul className="routine-list" aria-label="Routines, latest change first">
          {routines.data.map((routine) => (
            <RoutineRow
              key={routine.id}
              companyId={companyId}
              routine={routine}
              agentName={routine.assigneeAgentId ? nameOf(routine.assigneeAgentId) : 'No assignee'}
            />
          ))}
        </ul>
      )}
      {routines.data && routines.data.length === ROUTINES_LIMIT && (
        <p className="muted">Showing the {ROUTINES_LIMIT} most recently changed.</p>
      )}
    </div>
  );
}

function RoutineRow({
  companyId,
  routine,
  agentName,
}: {
  companyId: string;
  routine: RoutineListItem;
  agentName: string;
}) {
  const next = nextFire(routine.triggers);
  const last = routine.latestRun;
  return (
    <li className="routine-row">
      <Link to={routinePath(companyId, routine.id)} className="routine-title">
        {routine.title}
      </Link>
      <StatusPill tone={routineStatuses.tone(routine.status)}>{routineStatuses.label(routine.status)}</StatusPill>
      <span className="routine-meta">{agentName}</span>
      <span className="routine-meta">
        Next:{' '}
        {next ? (
          <time dateTime={next} title={fullTime(next)}>
            {timeAgo(next)}
          </time>
        ) : (
          <span className="muted">
            {routine.status === 'active'
              ? 'no schedule'
              : `not while ${routineStatuses.label(routine.status).toLowerCase()}`}
          </span>
        )}
      </span>
      <span className="routine-meta">
        Last run:{' '}
        {last ? (
          <>
            <StatusPill tone={routineRunStatuses.tone(last.status)}>{routineRunStatuses.label(last.status)}</StatusPill>{' '}
            <time dateTime={last.createdAt} title={fullTime(last.createdAt)}>
              {timeAgo(last.createdAt)}
            </time>
            <span className="muted"> · {SOURCE_LABELS[last.source]}</span>
          </>
        ) : (
          <span className="muted">never</span>
        )}
      </span>
    </li>
  );
}

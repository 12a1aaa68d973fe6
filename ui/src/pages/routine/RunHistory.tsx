// The routine's runs, newest first, each with the issue it created, joined or was skipped for.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, timeAgo } from '../../lib/format';
import { routineRunStatuses } from '../../lib/statuses';
import { routineIssuesQuery } from '../../queries/issues';
import { routineRunsQuery } from '../../queries/routines';
import { SOURCE_LABELS } from '../routines/model';
import { StatusPill } from '../../components/display/StatusPill';

export function RunHistory({ companyId, routineId }: { companyId: string; routineId: string }) {
  const runs = useQuery(routineRunsQuery(companyId, routineId));
  // The execution issues, to name each run's issue by identifier (one bounded read, not one per run).
  const issues = useQuery(routineIssuesQuery(companyId, routineId));
  const issueById = new Map((issues.data ?? []).map((issue) => [issue.id, issue]));

  return (
    <section className="card routine-section" aria-labelledby="routine-runs">
      <h2 id="routine-runs">Run history</h2>
      {runs.isPending ? (
        <Loading label="Loading runs" />
      ) : runs.isError ? (
        <ErrorNotice error={runs.error} title="The runs could not be loaded" retry={() => runs.refetch()} />
      ) : runs.data.length === 0 ? (
        <p className="muted">
          No runs yet. Schedules, webhooks and &quot;Run now&quot; record one each time they fire.
        </p>
      ) : (
        <div className="routine-table-scroll">
          <table className="table routine-runs">
            <caption className="visually-hidden">Runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Source</th>
                <th scope="col">Result</th>
                <th scope="col">Issue</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.map((run) => {
                const issue = run.linkedIssueId ? issueById.get(run.linkedIssueId) : undefined;
                return (
                  <tr key={run.id}>
                    <td>
                      <time dateTime={run.createdAt} title={fullTime(run.createdAt)}>
                        {timeAgo(run.createdAt)}
                      </time>
                    </td>
                    <td>{SOURCE_LABELS[run.source]}</td>
                    <td>
                      <StatusPill tone={routineRunStatuses.tone(run.status)}>
                        {routineRunStatuses.label(run.status)}
                      </StatusPill>
                      {run.failureReason && <div className="routine-run-reason">{run.failureReason}</div>}
                    </td>
                    <td>
                      {run.linkedIssueId ? (
                        <Link to={`/c/${companyId}/issues/${issue?.identifier ?? run.linkedIssueId}`}>
                          {issue ? `${issue.identifier} ${issue.title}` : 'Open issue'}
                        </Link>
                      ) : (
                        <span className="muted">none</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {issues.isError && (
        <ErrorNotice error={issues.error} title="The runs' issues could not be named" retry={() => issues.refetch()} />
      )}
    </section>
  );
}

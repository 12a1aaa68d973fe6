// The agent's runs, newest first, a page at a time (keyset: `before` = the last run of a page). A
// live run shows its transcript as it is written, with cancel; a finished run's transcript opens on
// demand. Live through the 'runs' resource: a run starting or ending refetches the loaded pages.
import { useInfiniteQuery } from '@tanstack/react-query';
import { Fragment, useEffect, useState } from 'react';
import type { AgentDetail } from '../../queries/agents';
import { agentRunsQuery, type Run } from '../../queries/runs';
import { RunIssueLink } from '../../components/agents/RunIssueLink';
import { useNow } from '../../components/agents/useNow';
import { isLive, runSourceLabel, runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { CancelRunButton } from '../../components/runs/CancelRunButton';
import { RunFailure } from '../../components/runs/RunFailure';
import { TranscriptViewer } from '../../components/runs/TranscriptViewer';
import { runHref } from '../../components/runs/run-href';
import { Link } from 'react-router';
import { duration, fullTime, timeAgo } from '../../lib/format';
import { StatusPill } from '../../components/display/StatusPill';

/** Runs per page; the overview reads the first page for its live run and success rate (one cache entry). */
export const RUNS_PAGE_SIZE = 25;

export function RunsTab({ companyId, agent }: { companyId: string; agent: AgentDetail }) {
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const runs = useInfiniteQuery(agentRunsQuery(companyId, agent.id, RUNS_PAGE_SIZE));
  const list = runs.data?.pages.flat() ?? [];
  const now = useNow(list.some(isLive));
  // A run seen live keeps its transcript open after it ends, so the end of the log stays in view.
  useEffect(() => {
    const liveIds = list.filter(isLive).map((run) => run.runId);
    if (liveIds.some((id) => !opened.has(id))) setOpened((current) => new Set([...current, ...liveIds]));
  }, [list, opened]);

  if (runs.isPending) return <Loading label="Loading runs" />;
  if (runs.isError && !runs.data)
    return <ErrorNotice error={runs.error} retry={() => runs.refetch()} title="The runs could not be loaded" />;
  if (list.length === 0)
    return (
      <p className="notice">
        No runs yet. Wake {agent.name} (Wake now, above) or assign it an issue; its runs appear here as they start.
      </p>
    );
  return (
    <div className="agent-runs">
      <table className="table">
        <caption className="visually-hidden">Runs of {agent.name}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Started</th>
            <th scope="col">Duration</th>
            <th scope="col">Issue</th>
            <th scope="col">Source</th>
            <th scope="col">
              <span className="visually-hidden">Transcript</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((run) => {
            const live = isLive(run);
            return (
              <Fragment key={run.runId}>
                <tr>
                  <td>
                    <RunStatus run={run} />
                  </td>
                  <td title={fullTime(run.startedAt ?? run.createdAt)}>
                    <Link to={runHref(companyId, run.runId)}>{timeAgo(run.startedAt ?? run.createdAt, now)}</Link>
                  </td>
                  <td className="mono">
                    {run.startedAt
                      ? duration(
                          (run.finishedAt ? new Date(run.finishedAt).getTime() : now) -
                            new Date(run.startedAt).getTime(),
                        )
                      : '–'}
                  </td>
                  <td>
                    {run.issueId ? (
                      <RunIssueLink companyId={companyId} issueId={run.issueId} />
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                  <td>
                    {run.invocationSource ? runSourceLabel(run.invocationSource) : <span className="muted">–</span>}
                  </td>
                  <td>{live && <CancelRunButton runId={run.runId} />}</td>
                </tr>
                {(run.error || run.errorHelp) && (
                  <tr>
                    <td colSpan={6}>
                      <RunFailure run={run} />
                    </td>
                  </tr>
                )}
                <tr>
                  <td colSpan={6}>
                    <TranscriptViewer
                      companyId={companyId}
                      run={run}
                      collapsed={!live && !opened.has(run.runId)}
                      label={`Transcript of the run started ${timeAgo(run.startedAt ?? run.createdAt, now)}`}
                    />
                  </td>
                </tr>
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {runs.hasNextPage && (
        <button type="button" disabled={runs.isFetchingNextPage} onClick={() => runs.fetchNextPage()}>
          {runs.isFetchingNextPage ? 'Loading…' : 'Older runs'}
        </button>
      )}
      {runs.isError && (
        <ErrorNotice error={runs.error} title="The runs could not be refreshed" retry={() => runs.refetch()} />
      )}
    </div>
  );
}

function RunStatus({ run }: { run: Run }) {
  return <StatusPill tone={runStatusTone(run.status)}>{runStatusLabel(run.status)}</StatusPill>;
}

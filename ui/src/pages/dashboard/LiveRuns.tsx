// "Now": every live run with its agent, its issue, its elapsed time and its last log line. The list is
// GET /api/companies/{id}/live-runs under its own 'live-runs' resource, which the live layer reads
// again when a run changes status; a growing log's last line comes in its run_log event and is put
// in the rows as it is (live/company-events.ts); the clock ticks locally.
import { memo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { CancelRunButton } from '../../components/runs/CancelRunButton';
import { runHref } from '../../components/runs/run-href';
import { runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { duration, fullTime } from '../../lib/format';
import { useNow } from '../../components/agents/useNow';
import { liveRunRowsQuery, type LiveRun } from '../../queries/runs';
import { StatusPill } from '../../components/display/StatusPill';

/** Live runs shown at most (the newest); a company running more is told so. */
const SHOWN = 50;

export function LiveRuns({ companyId }: { companyId: string }) {
  const runs = useQuery(liveRunRowsQuery(companyId, SHOWN));
  return (
    <section className="card now" aria-labelledby="now-heading">
      <h2 id="now-heading">
        Now{' '}
        {runs.data && runs.data.length > 0 && (
          <span className="muted">
            · {runs.data.length === SHOWN ? `the newest ${SHOWN} live runs` : `${runs.data.length} live`}
          </span>
        )}
      </h2>
      {runs.isPending ? (
        <Loading label="Loading live runs" />
      ) : runs.isError ? (
        <ErrorNotice error={runs.error} retry={() => runs.refetch()} title="Live runs could not be loaded" />
      ) : runs.data.length === 0 ? (
        <p className="muted empty">
          Nothing is running. Assign an issue to an agent, or wake one from its page, and its run shows here.
        </p>
      ) : (
        <ul className="live-runs">
          {runs.data.map((run) => (
            <LiveRunItem key={run.runId} run={run} companyId={companyId} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * One run's row. Memoised on the row object: a run line put in replaces only that run's object
 * (live/company-events.ts), so the other rows are not rendered again; the clock ticks in Elapsed.
 */
const LiveRunItem = memo(function LiveRunItem({ run, companyId }: { run: LiveRun; companyId: string }) {
  const since = run.startedAt ?? run.createdAt;
  return (
    <li data-run-id={run.runId} className="live-run">
      <div className="live-run-head">
        <StatusPill tone={runStatusTone(run.status)}>{runStatusLabel(run.status)}</StatusPill>
        <Link to={runHref(companyId, run.runId)} className="live-run-agent" aria-label={`${run.agentName}'s run`}>
          {run.agentName}
        </Link>
        {run.issueId ? (
          <Link to={`/c/${companyId}/issues/${run.issueId}`} className="live-run-issue">
            <span className="mono">{run.issueIdentifier}</span>{' '}
            <span title={run.issueTitle ?? undefined}>{run.issueTitle}</span>
          </Link>
        ) : (
          <span className="muted live-run-issue">no issue</span>
        )}
        <Elapsed since={since} started={run.startedAt !== null} />
        <CancelRunButton runId={run.runId} iconLabel={`Cancel ${run.agentName}'s run`} />
      </div>
      <p className="last-line mono" data-testid="last-log-line" title={run.lastLogLine ?? undefined}>
        {run.lastLogLine ?? (run.status === 'queued' ? 'Waiting to start…' : 'No output yet…')}
      </p>
    </li>
  );
});

function Elapsed({ since, started }: { since: string; started: boolean }) {
  const elapsed = duration(useNow(true) - new Date(since).getTime());
  return (
    <time
      className="elapsed"
      dateTime={since}
      title={`${started ? 'Started' : 'Queued'} ${fullTime(since)}`}
      aria-label={`elapsed ${elapsed}`}
    >
      {elapsed}
    </time>
  );
}

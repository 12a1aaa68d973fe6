// Work on the issue: who holds its checkout, the runs about it (woken for it, or that checked it
// out), a live run's transcript with Cancel, a finished run's transcript on demand, and the
// execution workspace's branch with its diff stat.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CancelRunButton } from '../../components/runs/CancelRunButton';
import { RunFailure, type RunFailureFields } from '../../components/runs/RunFailure';
import { TranscriptViewer } from '../../components/runs/TranscriptViewer';
import { runHref } from '../../components/runs/run-href';
import { duration, fullTime, timeAgo } from '../../lib/format';
import { useAgentNames } from '../../queries/agents';
import type { IssueDetail } from '../../queries/issues';
import { issueCheckoutRunsQuery, issueWokenRunsQuery, type RunSummary } from '../../queries/runs';
import { LIVE_RUN_STATUSES, runSourceLabel, runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { StatusPill } from '../../components/display/StatusPill';

/** How many runs the issue page shows: the newest ones. */
const RUN_PAGE = 20;

/** Runs woken for the issue and runs that checked it out are two lists on the server; one here. */
function useIssueRuns(companyId: string, issueId: string) {
  const wokenFor = useQuery(issueWokenRunsQuery(companyId, issueId, RUN_PAGE));
  const checkedOut = useQuery(issueCheckoutRunsQuery(companyId, issueId, RUN_PAGE));
  // The company list's items also say why a run ended badly: they win over the issue list's summaries.
  const byId = new Map<string, RunSummary & RunFailureFields>();
  for (const run of [...(checkedOut.data ?? []), ...(wokenFor.data ?? [])]) byId.set(run.runId, run);
  const runs = [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, RUN_PAGE);
  return {
    runs,
    error: wokenFor.error ?? checkedOut.error,
    loaded: wokenFor.isSuccess && checkedOut.isSuccess,
    retry: () => void Promise.all([wokenFor.refetch(), checkedOut.refetch()]),
  };
}

export function Runs({ companyId, issue }: { companyId: string; issue: IssueDetail }) {
  const { nameOf } = useAgentNames(companyId);
  const { runs, error, loaded, retry } = useIssueRuns(companyId, issue.id);
  const holder = issue.checkoutRunId ? runs.find((run) => run.runId === issue.checkoutRunId) : undefined;

  return (
    <section className="issue-section" aria-labelledby="runs-heading">
      <h2 id="runs-heading">Work</h2>
      <p className="checkout-holder">
        {!issue.checkoutRunId ? (
          <span className="muted">Not checked out.</span>
        ) : holder ? (
          <>
            Checked out by <AgentLink companyId={companyId} nameOf={nameOf} agentId={holder.agentId} /> through run{' '}
            <span className="mono">{holder.runId.slice(0, 8)}</span>
            {holder.startedAt && (
              <>
                {' '}
                since{' '}
                <time dateTime={holder.startedAt} title={fullTime(holder.startedAt)}>
                  {timeAgo(holder.startedAt)}
                </time>
              </>
            )}
            {!LIVE_RUN_STATUSES.has(holder.status) && (
              <span className="muted"> (that run has ended: {runStatusLabel(holder.status).toLowerCase()})</span>
            )}
          </>
        ) : (
          <>
            Checked out by run <span className="mono">{issue.checkoutRunId.slice(0, 8)}</span>.
          </>
        )}
      </p>
      <Workspace issue={issue} />
      <h3>Runs</h3>
      {error && <ErrorNotice error={error} title="Runs could not be loaded" retry={retry} />}
      {loaded && runs.length === 0 && (
        <p className="muted">No runs yet. Assign the issue to an agent, or mention one in a comment, to wake it.</p>
      )}
      <ul className="run-list">
        {runs.map((run) => (
          <RunItem key={run.runId} companyId={companyId} run={run} nameOf={nameOf} />
        ))}
      </ul>
    </section>
  );
}

function AgentLink({
  companyId,
  nameOf,
  agentId,
}: {
  companyId: string;
  nameOf: (agentId: string) => string;
  agentId: string;
}) {
  return <Link to={`/c/${companyId}/agents/${agentId}`}>{nameOf(agentId)}</Link>;
}

function RunItem({
  companyId,
  run,
  nameOf,
}: {
  companyId: string;
  run: RunSummary & RunFailureFields;
  nameOf: (agentId: string) => string;
}) {
  const live = LIVE_RUN_STATUSES.has(run.status);
  const name = nameOf(run.agentId);
  const took =
    run.startedAt && run.finishedAt
      ? duration(new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime())
      : null;
  return (
    <li className="run" aria-label={`Run ${run.runId.slice(0, 8)} by ${name}: ${runStatusLabel(run.status)}`}>
      <div className="row wrap">
        <StatusPill tone={runStatusTone(run.status)}>{runStatusLabel(run.status)}</StatusPill>
        <AgentLink companyId={companyId} nameOf={nameOf} agentId={run.agentId} />
        <Link className="mono" to={runHref(companyId, run.runId)} aria-label={`${name}'s run ${run.runId.slice(0, 8)}`}>
          {run.runId.slice(0, 8)}
        </Link>
        <time className="muted" dateTime={run.createdAt} title={fullTime(run.createdAt)}>
          {timeAgo(run.createdAt)}
        </time>
        {took && <span className="muted">took {took}</span>}
        {run.invocationSource && <span className="muted">{runSourceLabel(run.invocationSource)}</span>}
        <span className="spacer" />
        {live && <CancelRunButton runId={run.runId} />}
      </div>
      <RunFailure run={run} />
      <TranscriptViewer
        companyId={companyId}
        run={run}
        collapsed={!live}
        label={`Transcript of run ${run.runId.slice(0, 8)}`}
      />
    </li>
  );
}

function Workspace({ issue }: { issue: IssueDetail }) {
  const workspace = issue.currentExecutionWorkspace;
  if (!workspace) return null;
  const product = issue.workProducts[0];
  return (
    <div className="workspace">
      <h3>Workspace</h3>
      {'branch' in workspace ? (
        <p>
          Branch <span className="mono">{workspace.branch}</span> from <span className="mono">{workspace.baseRef}</span>
          {workspace.status === 'closed' && <span className="muted"> (closed)</span>}
        </p>
      ) : (
        <p>
          Project workspace {workspace.name}
          {workspace.defaultRef && (
            <>
              {' '}
              on <span className="mono">{workspace.defaultRef}</span>
            </>
          )}
        </p>
      )}
      {product ? (
        <>
          <p>
            {product.commitsAhead} commit{product.commitsAhead === 1 ? '' : 's'} ahead · {product.diffStat.filesChanged}{' '}
            file{product.diffStat.filesChanged === 1 ? '' : 's'} changed,{' '}
            <span className="diff-ins">+{product.diffStat.insertions}</span>{' '}
            <span className="diff-del">−{product.diffStat.deletions}</span>
            {product.diffStat.uncommitted.filesChanged > 0 && (
              <span className="muted"> ({product.diffStat.uncommitted.filesChanged} uncommitted)</span>
            )}
            <span className="muted"> · as of {timeAgo(product.capturedAt)}</span>
          </p>
          <ul className="plain-list mono diffstat">
            {product.diffStat.files.map((file) => (
              <li key={file.path}>
                {file.path} <span className="diff-ins">+{file.insertions ?? '?'}</span>{' '}
                <span className="diff-del">−{file.deletions ?? '?'}</span>
                {file.uncommitted && <span className="muted"> uncommitted</span>}
              </li>
            ))}
          </ul>
          {product.diffStat.filesTruncated && <p className="muted">More files changed than are listed.</p>}
        </>
      ) : (
        <p className="muted">No diff stat yet: it is taken after a run in this workspace.</p>
      )}
    </div>
  );
}

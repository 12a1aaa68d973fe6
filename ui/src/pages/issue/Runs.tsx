// Work on the issue: the runs about it (woken for it, or that checked it out) as timeline cards, a
// live run's transcript with Cancel, a failed run's reason in words with Retry, and the execution
// workspace's branch with its diff stat.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { StatusPill } from '../../components/display/StatusPill';
import { TimelineItem } from '../../components/display/TimelineItem';
import { CancelRunButton } from '../../components/runs/CancelRunButton';
import { RunFailure, type RunFailureFields } from '../../components/runs/RunFailure';
import { TranscriptViewer } from '../../components/runs/TranscriptViewer';
import { runHref } from '../../components/runs/run-href';
import { LIVE_RUN_STATUSES, runSourceLabel, runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { duration, timeAgo } from '../../lib/format';
import type { IssueDetail } from '../../queries/issues';
import { issueCheckoutRunsQuery, issueWokenRunsQuery, runQuery, type RunSummary } from '../../queries/runs';
import { RetryRunButton } from '../inbox/RetryRunButton';

/** How many runs the issue page shows: the newest ones. */
const RUN_PAGE = 20;

export type IssueRun = RunSummary & RunFailureFields;

/** Runs woken for the issue and runs that checked it out are two lists on the server; one here. */
export function useIssueRuns(companyId: string, issueId: string) {
  const wokenFor = useQuery(issueWokenRunsQuery(companyId, issueId, RUN_PAGE));
  const checkedOut = useQuery(issueCheckoutRunsQuery(companyId, issueId, RUN_PAGE));
  // The company list's items also say why a run ended badly: they win over the issue list's summaries.
  const byId = new Map<string, IssueRun>();
  for (const run of [...(checkedOut.data ?? []), ...(wokenFor.data ?? [])]) byId.set(run.runId, run);
  const runs = [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, RUN_PAGE);
  return {
    runs,
    error: wokenFor.error ?? checkedOut.error,
    retry: () => void Promise.all([wokenFor.refetch(), checkedOut.refetch()]),
  };
}

/** One run in the timeline: "Dev's run · Running · 2 min ago", then why it failed, and its transcript. */
export function RunCard({
  companyId,
  issueId,
  run,
  name,
}: {
  companyId: string;
  issueId: string;
  run: IssueRun;
  name: string;
}) {
  const live = LIVE_RUN_STATUSES.has(run.status);
  const took =
    run.startedAt && run.finishedAt
      ? duration(new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime())
      : null;
  const failed = run.status === 'failed' || run.status === 'timed_out' ? run.status : null;
  return (
    <TimelineItem
      avatar={<AgentAvatar id={run.agentId} name={name} />}
      actor={<Link to={runHref(companyId, run.runId)}>{`${name}'s run`}</Link>}
      at={run.createdAt}
      label={`Run by ${name}: ${runStatusLabel(run.status)}`}
      body={
        <div className="run-card" data-testid="run-card">
          {(took || run.invocationSource || live) && (
            <div className="run-card-meta">
              {took && <span className="muted">took {took}</span>}
              {run.invocationSource && <span className="muted">{runSourceLabel(run.invocationSource)}</span>}
              <span className="spacer" />
              {live && <CancelRunButton runId={run.runId} />}
            </div>
          )}
          {failed && <FailedRun companyId={companyId} issueId={issueId} run={run} status={failed} />}
          <TranscriptViewer
            companyId={companyId}
            run={run}
            collapsed={!live}
            label={`Transcript of ${name}'s run, ${timeAgo(run.createdAt)}`}
          />
        </div>
      }
    >
      <StatusPill tone={runStatusTone(run.status)}>{runStatusLabel(run.status)}</StatusPill>
    </TimelineItem>
  );
}

/** Why the run failed in words, the exit code (from the run itself: lists leave it out), and Retry. */
function FailedRun({
  companyId,
  issueId,
  run,
  status,
}: {
  companyId: string;
  issueId: string;
  run: IssueRun;
  status: 'failed' | 'timed_out';
}) {
  const exitCode = useQuery(runQuery(companyId, run.runId)).data?.exitCode;
  return (
    <div className="run-card-failure">
      <RunFailure run={run} />
      {exitCode != null && <p className="muted">The process exited with code {exitCode}.</p>}
      <RetryRunButton item={{ agentId: run.agentId, runId: run.runId, status, error: run.error ?? null, issueId }} />
    </div>
  );
}

export function Workspace({ issue }: { issue: IssueDetail }) {
  const workspace = issue.currentExecutionWorkspace;
  if (!workspace) return null;
  const product = issue.workProducts[0];
  return (
    <section className="issue-section workspace" aria-labelledby="workspace-heading">
      <h2 id="workspace-heading">Workspace</h2>
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
    </section>
  );
}

// A run's own page (/c/:companyId/runs/:runId): who ran, its status (live with the time so far),
// what started it, its transcript, how it was invoked, where it worked and what it changed there,
// usage and cost, the issues it touched, its events (RunEvents.tsx), and why it failed. Cancel while
// live, Retry once it failed or timed out.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { useNow } from '../../components/agents/useNow';
import { CancelRunButton } from '../../components/runs/CancelRunButton';
import { RunFailure } from '../../components/runs/RunFailure';
import { TranscriptViewer } from '../../components/runs/TranscriptViewer';
import { adapterLabel } from '../../components/runs/adapter-label';
import { isLive, runSourceLabel, runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { cents, duration, fullTime, timeAgo, tokenCount } from '../../lib/format';
import { issueStatuses } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { type RunDetail, runIssuesQuery, runQuery } from '../../queries/runs';
import { RetryRunButton } from '../inbox/RetryRunButton';
import { RunEvents } from './RunEvents';
import { RunWorkspace } from './RunWorkspace';
import { EntityPluginTabs } from '../../components/plugins/PluginSlots';

export function RunPage() {
  const { companyId = '', runId = '' } = useParams();
  const run = useQuery(runQuery(companyId, runId));
  const { agents, knownName } = useAgentNames(companyId);

  if (run.isPending) return <Loading label="Loading the run" />;
  if (run.isError) return <RunMissing companyId={companyId} error={run.error} retry={() => void run.refetch()} />;
  // A board member of several companies reads any of their runs: a run of another company is not shown
  // under this one's address.
  if (agents.length > 0 && !knownName(run.data.agentId))
    return <RunMissing companyId={companyId} error={new Error('This run belongs to another company.')} />;
  return <RunView companyId={companyId} run={run.data} agentName={knownName(run.data.agentId)} knownName={knownName} />;
}

function RunMissing({ companyId, error, retry }: { companyId: string; error: unknown; retry?: () => void }) {
  return (
    <div className="page run-page">
      <h1>Run not found</h1>
      <ErrorNotice error={error} title="This run could not be shown" retry={retry} />
      <p>
        <Link to={`/c/${companyId}/dashboard`}>Back to the dashboard</Link>
      </p>
    </div>
  );
}

function RunView({
  companyId,
  run,
  agentName,
  knownName,
}: {
  companyId: string;
  run: RunDetail;
  agentName?: string;
  knownName: (agentId: string) => string | undefined;
}) {
  const live = isLive(run);
  const now = useNow(live);
  const name = agentName ?? 'An agent';
  const since = run.startedAt ?? run.createdAt;
  const failed = run.status === 'failed' || run.status === 'timed_out';
  return (
    <div className="page run-page">
      <header className="run-page-head">
        <h1>
          <Link to={`/c/${companyId}/agents/${run.agentId}`}>{name}</Link>'s run
        </h1>
        <div className="run-page-facts">
          <span className={`badge ${live ? 'run-page-live live-motion' : runStatusTone(run.status)}`}>
            {runStatusLabel(run.status)}
          </span>
          {live && (
            <time className="mono" dateTime={since} title={`Since ${fullTime(since)}`}>
              {duration(now - new Date(since).getTime())}
            </time>
          )}
          {run.invocationSource && <span>{runSourceLabel(run.invocationSource)}</span>}
          <span className="mono muted" title="The run's short id">
            {run.runId.slice(0, 8)}
          </span>
          <span className="spacer" />
          {live && <CancelRunButton runId={run.runId} />}
          {(run.status === 'failed' || run.status === 'timed_out') && (
            <RetryRunButton item={{ ...run, status: run.status }} />
          )}
        </div>
        <p className="muted">
          {run.startedAt ? (
            <>
              Started <When at={run.startedAt} />
            </>
          ) : (
            <>
              Queued <When at={run.createdAt} />
            </>
          )}
          {run.finishedAt && (
            <>
              {' · '}finished <When at={run.finishedAt} />
              {run.startedAt &&
                ` · took ${duration(new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime())}`}
            </>
          )}
        </p>
      </header>

      {failed && (
        <section className="run-page-section run-page-failure" aria-labelledby="run-failure-heading">
          <h2 id="run-failure-heading">Why it {run.status === 'timed_out' ? 'timed out' : 'failed'}</h2>
          <RunFailure run={run} />
          <Outcome run={run} />
        </section>
      )}

      <section className="run-page-section" aria-labelledby="run-transcript-heading">
        <h2 id="run-transcript-heading">Transcript</h2>
        <TranscriptViewer key={run.runId} companyId={companyId} run={run} label={`Transcript of ${name}'s run`} />
      </section>

      <div className="run-page-grid">
        <section className="run-page-section" aria-labelledby="run-issues-heading">
          <h2 id="run-issues-heading">Issues</h2>
          <LinkedIssues companyId={companyId} runId={run.runId} />
        </section>
        <section className="run-page-section" aria-labelledby="run-invocation-heading">
          <h2 id="run-invocation-heading">Invocation</h2>
          <dl className="run-page-facts-list">
            <dt>Adapter</dt>
            <dd>{run.adapterType ? adapterLabel(run.adapterType) : 'Not recorded'}</dd>
            <dt>Started by</dt>
            <dd>{run.invocationSource ? runSourceLabel(run.invocationSource) : 'Not recorded'}</dd>
            {run.wakeReason && (
              <>
                <dt>Reason</dt>
                <dd className="run-page-wrap">{run.wakeReason}</dd>
              </>
            )}
            {usageOf(run).model && (
              <>
                <dt>Model</dt>
                <dd className="mono">{usageOf(run).model}</dd>
              </>
            )}
            {live && run.deadlineAt && (
              <>
                <dt>Deadline</dt>
                <dd>
                  <When at={run.deadlineAt} />
                </dd>
              </>
            )}
            <dt>Log</dt>
            <dd>
              {logSize(run.logBytes)}
              {run.logTruncated && ' (cut at the size limit)'}
            </dd>
          </dl>
          {!failed && <Outcome run={run} />}
        </section>
        <section className="run-page-section" aria-labelledby="run-workspace-heading">
          <h2 id="run-workspace-heading">Workspace</h2>
          <RunWorkspace run={run} />
        </section>
        <section className="run-page-section" aria-labelledby="run-usage-heading">
          <h2 id="run-usage-heading">Usage and cost</h2>
          <Usage run={run} />
        </section>
      </div>

      <section className="run-page-section" aria-labelledby="run-events-heading">
        <h2 id="run-events-heading">Events</h2>
        <RunEvents companyId={companyId} run={run} agentName={name} knownName={knownName} />
      </section>
      <EntityPluginTabs companyId={companyId} entity="run" entityId={run.runId} />
    </div>
  );
}

function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={fullTime(at)}>
      {timeAgo(at)}
    </time>
  );
}

/** How the process ended: its exit code and the signal that stopped it, when there was one. */
function Outcome({ run }: { run: RunDetail }) {
  if (run.exitCode === null && !run.signal) return null;
  return (
    <dl className="run-page-facts-list">
      {run.exitCode !== null && (
        <>
          <dt>Exit code</dt>
          <dd className={`mono${run.exitCode !== 0 ? ' run-page-bad' : ''}`}>{run.exitCode}</dd>
        </>
      )}
      {run.signal && (
        <>
          <dt>Stopped by</dt>
          <dd className="mono">{run.signal}</dd>
        </>
      )}
    </dl>
  );
}

interface UsageFields {
  model?: string;
  provider?: string;
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
  costCents?: number;
}

/** The adapter's usage report (free JSON): only the fields that have the expected type. */
function usageOf(run: RunDetail): UsageFields {
  const raw = run.usageJson;
  if (!raw || typeof raw !== 'object') return {};
  const record = raw as Record<string, unknown>;
  const usage: UsageFields = {};
  for (const field of ['model', 'provider'] as const)
    if (typeof record[field] === 'string') usage[field] = record[field] as string;
  for (const field of ['inputTokens', 'cachedInputTokens', 'outputTokens', 'costCents'] as const)
    if (typeof record[field] === 'number') usage[field] = record[field] as number;
  return usage;
}

function Usage({ run }: { run: RunDetail }) {
  const usage = usageOf(run);
  const rows: [string, string][] = [];
  if (usage.inputTokens !== undefined) rows.push(['Input tokens', tokenCount(usage.inputTokens)]);
  if (usage.cachedInputTokens !== undefined) rows.push(['Cached input tokens', tokenCount(usage.cachedInputTokens)]);
  if (usage.outputTokens !== undefined) rows.push(['Output tokens', tokenCount(usage.outputTokens)]);
  if (usage.costCents !== undefined) rows.push(['Cost', cents(usage.costCents)]);
  if (rows.length === 0) return <p className="muted">This run reported no usage.</p>;
  return (
    <dl className="run-page-facts-list">
      {rows.map(([term, value]) => (
        <div key={term} className="run-page-fact">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LinkedIssues({ companyId, runId }: { companyId: string; runId: string }) {
  const issues = useQuery(runIssuesQuery(companyId, runId));
  if (issues.isPending) return <Loading label="Loading the run's issues" />;
  if (issues.isError)
    return (
      <ErrorNotice error={issues.error} title="The run's issues could not be loaded" retry={() => issues.refetch()} />
    );
  if (issues.data.length === 0) return <p className="muted">This run checked out no issue.</p>;
  return (
    <ul className="run-page-issues">
      {issues.data.map((issue) => (
        <li key={issue.id}>
          <Link to={`/c/${companyId}/issues/${issue.identifier}`}>
            <span className="mono">{issue.identifier}</span> {issue.title}
          </Link>{' '}
          <span className={`badge ${issueStatuses.tone(issue.status)}`}>{issueStatuses.label(issue.status)}</span>
        </li>
      ))}
    </ul>
  );
}

const logSize = (bytes: number): string =>
  bytes === 0 ? 'Empty' : bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;

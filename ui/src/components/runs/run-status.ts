// How a heartbeat run's status reads and looks wherever a run is shown: the words for each status and
// its semantic tone, and which statuses are live. The other vocabularies are in lib/statuses.ts.
import type { paths } from '../../api/schema';
import type { Tone } from '../../lib/statuses';

export type RunStatus =
  paths['/api/heartbeat-runs/{runId}']['get']['responses'][200]['content']['application/json']['status'];

const WORDS: Record<RunStatus, { label: string; tone: Tone }> = {
  queued: { label: 'Queued', tone: 'info' },
  running: { label: 'Running', tone: 'live' },
  succeeded: { label: 'Succeeded', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  timed_out: { label: 'Timed out', tone: 'warning' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

/** Every run status, in the order a run goes through them. */
export const RUN_STATUSES = Object.keys(WORDS) as RunStatus[];

/** Statuses of a run still to finish: it may hold a checkout, and its transcript grows. */
export const LIVE_RUN_STATUSES: ReadonlySet<string> = new Set<RunStatus>(['queued', 'running']);
export const isLive = (run: { status: string }) => LIVE_RUN_STATUSES.has(run.status);

/** The status in words; one this board does not know yet (a newer server) reads as itself. */
export const runStatusLabel = (status: string): string => WORDS[status as RunStatus]?.label ?? status;

/** What a status means (its tone); neutral for one this board does not know yet. */
export const runStatusTone = (status: string): Tone => WORDS[status as RunStatus]?.tone ?? 'neutral';

/** What started a run (the API's invocationSource), in words; an unknown source reads as itself. */
const SOURCES: Record<string, string> = {
  timer: 'Heartbeat',
  assignment: 'Assignment',
  on_demand: 'On demand',
  automation: 'Automation',
  checkout: 'Checkout',
};
export const runSourceLabel = (source: string): string => SOURCES[source] ?? source;

/**
 * The agent's error banner: the API's errorReason is `run <id> <status>: <detail>` (the id is for API
 * clients); people read "The last run failed: <detail>".
 */
export const agentErrorInWords = (errorReason: string): string =>
  errorReason.replace(
    /^run [0-9a-f-]{36} (\w+):/,
    (_match, status: string) => `The last run ${runStatusLabel(status).toLowerCase()}:`,
  );

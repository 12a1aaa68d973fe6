// How a run's status looks wherever a run is shown: one tone per status (the badge classes).
import type { paths } from '../../api/schema';

export type RunStatus =
  paths['/api/heartbeat-runs/{runId}']['get']['responses'][200]['content']['application/json']['status'];

const TONE: Record<RunStatus, string> = {
  queued: 'badge-warning',
  running: 'badge-accent',
  succeeded: 'badge-success',
  failed: 'badge-danger',
  timed_out: 'badge-danger',
  cancelled: '',
};

/** The badge class for a status; none for one this board does not know yet. */
export const runStatusTone = (status: string): string => TONE[status as RunStatus] ?? '';

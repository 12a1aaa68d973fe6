// Routines as the board shows them: the policy choices with the help text shown next to their
// controls, and the words for sources and trigger kinds. Shared by the list and the detail page.
import type { RoutineDetail } from '../../queries/routines';

export type Trigger = RoutineDetail['triggers'][number];
export type RoutineRun = RoutineDetail['recentRuns'][number];
export type ConcurrencyPolicy = RoutineDetail['concurrencyPolicy'];
export type CatchUpPolicy = RoutineDetail['catchUpPolicy'];
export type SigningMode = NonNullable<Trigger['signingMode']>;

export const CONCURRENCY_POLICIES: { value: ConcurrencyPolicy; label: string; help: string }[] = [
  {
    value: 'coalesce_if_active',
    label: 'Join the open issue',
    help: "While the last run's issue is still open, a new run links to it instead of opening another.",
  },
  {
    value: 'skip_if_active',
    label: 'Skip while open',
    help: "While the last run's issue is still open, a new run is recorded as skipped and does nothing.",
  },
  {
    value: 'always_enqueue',
    label: 'Always a new issue',
    help: 'Every run opens its own issue, even if earlier ones are still open.',
  },
];

export const CATCH_UP_POLICIES: { value: CatchUpPolicy; label: string; help: string }[] = [
  {
    value: 'skip_missed',
    label: 'Skip missed ticks',
    help: 'Schedule ticks missed while no server ran (over 60 s late) do not fire; one skipped run records how many.',
  },
  {
    value: 'enqueue_missed_with_cap',
    label: 'Fire missed ticks (latest 10)',
    help: 'After downtime the latest 10 missed ticks fire; older ones are recorded as one skipped run.',
  },
];

export const SIGNING_MODES: { value: SigningMode; label: string; help: string }[] = [
  { value: 'bearer', label: 'Bearer secret', help: 'The sender sends Authorization: Bearer <secret>.' },
  {
    value: 'hmac_sha256',
    label: 'HMAC-SHA256',
    help: 'The sender signs the body with the secret in X-Service-Signature (or X-Hub-Signature-256).',
  },
  {
    value: 'codehost_hmac',
    label: 'HMAC with timestamp',
    help: 'HMAC over "<timestamp>.<body>" plus X-Service-Timestamp, within the replay window.',
  },
  { value: 'none', label: 'None', help: 'No signature: the URL is the only credential.' },
];

export const helpOf = <T extends string>(choices: { value: T; help: string }[], value: T): string =>
  choices.find((choice) => choice.value === value)?.help ?? '';

export const SOURCE_LABELS: Record<RoutineRun['source'], string> = {
  manual: 'Run now',
  api: 'API',
  schedule: 'Schedule',
  webhook: 'Webhook',
};
export const KIND_LABELS: Record<Trigger['kind'], string> = { schedule: 'Schedule', webhook: 'Webhook', api: 'API' };

/** The soonest fire time among the routine's enabled schedules (the server's nextRunAt), or null. */
export function nextFire(triggers: Pick<Trigger, 'enabled' | 'nextRunAt'>[]): string | null {
  const times = triggers.flatMap((trigger) => (trigger.enabled && trigger.nextRunAt ? [trigger.nextRunAt] : []));
  return times.length === 0
    ? null
    : times.reduce((soonest, time) => (new Date(time) < new Date(soonest) ? time : soonest));
}

export const routinePath = (companyId: string, routineId: string) => `/c/${companyId}/routines/${routineId}`;

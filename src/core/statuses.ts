// The status vocabularies several areas read (issue 17: they belong in core, not in the area that
// happens to write them). The zod enums and the state machines stay with their areas.

/** Agent statuses (SPEC section 3). */
export const AGENT_STATUSES = [
  'active',
  'paused',
  'idle',
  'running',
  'error',
  'pending_approval',
  'terminated',
] as const;

/**
 * Agent statuses in which an agent may not take work: no checkout, no wakeup (SPEC: conflict for
 * paused, terminated and pending_approval). The one list; callers ask canAgentWork.
 */
export const AGENT_CANNOT_WORK_STATUSES: ReadonlySet<string> = new Set(['paused', 'terminated', 'pending_approval']);

export function canAgentWork(status: string): boolean {
  return !AGENT_CANNOT_WORK_STATUSES.has(status);
}

/** A run in one of these statuses may still hold a checkout lock. */
export const LIVE_RUN_STATUSES = ['queued', 'running'] as const;
/** Finished runs: a lock held by one of these (or by a run that no longer exists) is stale. */
export const TERMINAL_RUN_STATUSES = ['succeeded', 'failed', 'cancelled', 'timed_out'] as const;

export const isLiveRunStatus = (status: string | null | undefined): boolean =>
  (LIVE_RUN_STATUSES as readonly (string | null | undefined)[]).includes(status);

/** Lifecycle of a wakeup queue row; see the agentWakeupRequests table for what each one means. */
export const WAKEUP_STATUSES = [
  'queued',
  'claimed',
  'completed',
  'coalesced',
  'deferred',
  'skipped',
  'cancelled',
  'failed',
] as const;

export const ISSUE_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'blocked', 'done', 'cancelled'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export const CLOSED_STATUSES: readonly IssueStatus[] = ['done', 'cancelled'];
export const ISSUE_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;

/** The originKind of an issue a routine run created (its execution issue). */
export const ROUTINE_EXECUTION = 'routine_execution';

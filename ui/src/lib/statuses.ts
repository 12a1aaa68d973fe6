// The board's status vocabularies: for each kind of thing, its statuses in the order the board lists
// them, the words people read for each (never the API's enum keys) and its semantic tone. Every page
// that shows, lists or offers a status takes it from here. A heartbeat run's vocabulary is with the
// run components (components/runs/run-status.ts).
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Answer<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? Json<R> : never;
type Item<T> = T extends readonly (infer I)[] ? I : never;

export type IssueStatus = Answer<'/api/issues/{issueId}'>['status'];
export type IssuePriority = Answer<'/api/issues/{issueId}'>['priority'];
export type AgentStatus = Item<Answer<'/api/companies/{companyId}/agents'>>['status'];
export type ApprovalStatus = Answer<'/api/approvals/{approvalId}'>['status'];
type RoutineStatus = Answer<'/api/routines/{routineId}'>['status'];
type RoutineRunStatus = Item<Answer<'/api/routines/{routineId}'>['recentRuns']>['status'];
export type ProjectStatus = Answer<'/api/projects/{projectId}'>['status'];
type GoalStatus = Item<Answer<'/api/companies/{companyId}/goals'>>['status'];
export type ServiceStatus = NonNullable<
  Item<Answer<'/api/projects/{projectId}'>['workspaces']>['runtimeService']
>['status'];

/**
 * The board's semantic tones (the `--<tone>` and `--<tone>-bg` tokens in styles.css): what a state means,
 * never a colour. `live` is for what runs right now, and pulses.
 */
export type Tone = 'neutral' | 'info' | 'live' | 'success' | 'warning' | 'danger' | 'violet';

/** One vocabulary: `list` in the board's order, `label` in words, `tone` what the status means. */
function vocabulary<S extends string>(words: Record<S, { label: string; tone: Tone }>) {
  const list = Object.keys(words) as S[];
  return {
    list,
    is: (value: string): value is S => (list as string[]).includes(value),
    // A status this board does not know yet (a newer server) reads as itself rather than nothing.
    label: (status: S): string => words[status]?.label ?? status,
    tone: (status: S): Tone => words[status]?.tone ?? 'neutral',
  };
}

/** Board columns, left to right: SPEC's order, blocked beside in_progress, the terminal states last. */
export const issueStatuses = vocabulary<IssueStatus>({
  backlog: { label: 'Backlog', tone: 'neutral' },
  todo: { label: 'Todo', tone: 'neutral' },
  in_progress: { label: 'In progress', tone: 'live' },
  blocked: { label: 'Blocked', tone: 'warning' },
  in_review: { label: 'In review', tone: 'violet' },
  done: { label: 'Done', tone: 'success' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
});

export const issuePriorities = vocabulary<IssuePriority>({
  critical: { label: 'Critical', tone: 'neutral' },
  high: { label: 'High', tone: 'neutral' },
  medium: { label: 'Medium', tone: 'neutral' },
  low: { label: 'Low', tone: 'neutral' },
});

export const agentStatuses = vocabulary<AgentStatus>({
  active: { label: 'Active', tone: 'success' },
  idle: { label: 'Idle', tone: 'neutral' },
  running: { label: 'Running', tone: 'live' },
  paused: { label: 'Paused', tone: 'warning' },
  error: { label: 'Error', tone: 'danger' },
  pending_approval: { label: 'Pending approval', tone: 'violet' },
  terminated: { label: 'Terminated', tone: 'danger' },
});

export const approvalStatuses = vocabulary<ApprovalStatus>({
  pending: { label: 'Pending', tone: 'info' },
  revision_requested: { label: 'Revision requested', tone: 'warning' },
  approved: { label: 'Approved', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'danger' },
});

export const routineStatuses = vocabulary<RoutineStatus>({
  active: { label: 'Active', tone: 'success' },
  paused: { label: 'Paused', tone: 'neutral' },
  archived: { label: 'Archived', tone: 'neutral' },
});

/** What became of one firing of a routine (not a heartbeat run). */
export const routineRunStatuses = vocabulary<RoutineRunStatus>({
  received: { label: 'Received', tone: 'neutral' },
  issue_created: { label: 'Issue created', tone: 'info' },
  coalesced: { label: 'Joined open issue', tone: 'neutral' },
  skipped: { label: 'Skipped', tone: 'warning' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
});

export const projectStatuses = vocabulary<ProjectStatus>({
  backlog: { label: 'Backlog', tone: 'neutral' },
  planned: { label: 'Planned', tone: 'neutral' },
  in_progress: { label: 'In progress', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
});

export const goalStatuses = vocabulary<GoalStatus>({
  planned: { label: 'Planned', tone: 'neutral' },
  active: { label: 'Active', tone: 'info' },
  achieved: { label: 'Achieved', tone: 'success' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
});

/** A project workspace's runtime service (its process). */
export const serviceStatuses = vocabulary<ServiceStatus>({
  starting: { label: 'Starting', tone: 'info' },
  running: { label: 'Running', tone: 'live' },
  backoff: { label: 'Waiting to restart', tone: 'warning' },
  crashed: { label: 'Crashed', tone: 'danger' },
  stopped: { label: 'Stopped', tone: 'neutral' },
});
/** A service with a process up or coming up: its output grows and it can be stopped. */
export const isServiceLive = (status: ServiceStatus | undefined): boolean =>
  status === 'running' || status === 'starting' || status === 'backoff';

// The board's status vocabularies: for each kind of thing, its statuses in the order the board lists
// them, the words people read for each (never the API's enum keys) and the badge tone. Every page
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

/** One vocabulary: `list` in the board's order, `label` in words, `tone` a badge class ('' for plain). */
function vocabulary<S extends string>(words: Record<S, { label: string; tone: string }>) {
  const list = Object.keys(words) as S[];
  return {
    list,
    is: (value: string): value is S => (list as string[]).includes(value),
    // A status this board does not know yet (a newer server) reads as itself rather than nothing.
    label: (status: S): string => words[status]?.label ?? status,
    tone: (status: S): string => words[status]?.tone ?? '',
  };
}

/** Board columns, left to right: SPEC's order, blocked beside in_progress, the terminal states last. */
export const issueStatuses = vocabulary<IssueStatus>({
  backlog: { label: 'Backlog', tone: '' },
  todo: { label: 'Todo', tone: '' },
  in_progress: { label: 'In progress', tone: 'badge-accent' },
  blocked: { label: 'Blocked', tone: 'badge-warning' },
  in_review: { label: 'In review', tone: '' },
  done: { label: 'Done', tone: 'badge-success' },
  cancelled: { label: 'Cancelled', tone: '' },
});

export const issuePriorities = vocabulary<IssuePriority>({
  critical: { label: 'Critical', tone: '' },
  high: { label: 'High', tone: '' },
  medium: { label: 'Medium', tone: '' },
  low: { label: 'Low', tone: '' },
});

export const agentStatuses = vocabulary<AgentStatus>({
  active: { label: 'Active', tone: 'badge-success' },
  idle: { label: 'Idle', tone: '' },
  running: { label: 'Running', tone: 'badge-accent' },
  paused: { label: 'Paused', tone: 'badge-warning' },
  error: { label: 'Error', tone: 'badge-danger' },
  pending_approval: { label: 'Pending approval', tone: 'badge-warning' },
  terminated: { label: 'Terminated', tone: 'badge-danger' },
});

export const approvalStatuses = vocabulary<ApprovalStatus>({
  pending: { label: 'Pending', tone: 'badge-accent' },
  revision_requested: { label: 'Revision requested', tone: 'badge-warning' },
  approved: { label: 'Approved', tone: 'badge-success' },
  rejected: { label: 'Rejected', tone: 'badge-danger' },
});

export const routineStatuses = vocabulary<RoutineStatus>({
  active: { label: 'Active', tone: 'badge-success' },
  paused: { label: 'Paused', tone: '' },
  archived: { label: 'Archived', tone: '' },
});

/** What became of one firing of a routine (not a heartbeat run). */
export const routineRunStatuses = vocabulary<RoutineRunStatus>({
  received: { label: 'Received', tone: '' },
  issue_created: { label: 'Issue created', tone: 'badge-accent' },
  coalesced: { label: 'Joined open issue', tone: '' },
  skipped: { label: 'Skipped', tone: 'badge-warning' },
  completed: { label: 'Completed', tone: 'badge-success' },
  failed: { label: 'Failed', tone: 'badge-danger' },
});

export const projectStatuses = vocabulary<ProjectStatus>({
  backlog: { label: 'Backlog', tone: '' },
  planned: { label: 'Planned', tone: '' },
  in_progress: { label: 'In progress', tone: 'badge-accent' },
  completed: { label: 'Completed', tone: 'badge-success' },
  cancelled: { label: 'Cancelled', tone: '' },
});

export const goalStatuses = vocabulary<GoalStatus>({
  planned: { label: 'Planned', tone: '' },
  active: { label: 'Active', tone: 'badge-accent' },
  achieved: { label: 'Achieved', tone: 'badge-success' },
  cancelled: { label: 'Cancelled', tone: 'badge-danger' },
});

/** A project workspace's runtime service (its process). */
export const serviceStatuses = vocabulary<ServiceStatus>({
  starting: { label: 'Starting', tone: 'badge-accent' },
  running: { label: 'Running', tone: 'badge-success' },
  backoff: { label: 'Waiting to restart', tone: 'badge-warning' },
  crashed: { label: 'Crashed', tone: 'badge-danger' },
  stopped: { label: 'Stopped', tone: '' },
});
/** A service with a process up or coming up: its output grows and it can be stopped. */
export const isServiceLive = (status: ServiceStatus | undefined): boolean =>
  status === 'running' || status === 'starting' || status === 'backoff';

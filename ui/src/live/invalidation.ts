// Which queries an event makes stale. Kept apart from the EventSource plumbing so the mapping can be
// read (and tested) on its own.
import type { Resource } from '../api/keys';

export interface ActivityEvent {
  id: string;
  action: string;
  entityType: string;
  entityId: string;
}

const ALWAYS: Resource[] = ['activity', 'dashboard', 'counts', 'inbox'];

const BY_ENTITY: Record<string, Resource[]> = {
  // A routine run follows its execution issue (done completes it, cancelled fails it).
  issue: ['issues', 'issue', 'documents', 'routines', 'routine'],
  comment: ['issue'],
  document: ['issue', 'documents'],
  attachment: ['issue'],
  agent: ['agents', 'agent', 'org'],
  approval: ['approvals', 'approval', 'agents', 'org'],
  heartbeat_run: ['runs', 'run', 'issue', 'agent', 'agents'],
  cost_event: ['costs', 'agents', 'agent', 'budgets'],
  budget_policy: ['budgets', 'costs'],
  budget_incident: ['budgets', 'agents', 'agent'],
  routine: ['routines', 'routine'],
  project: ['projects'],
  project_workspace: ['projects'],
  goal: ['goals'],
  label: ['labels'],
  company: ['company'],
};

export function resourcesForActivity(event: ActivityEvent): Resource[] {
  const own = BY_ENTITY[event.entityType] ?? BY_ENTITY[event.action.split('.')[0] ?? ''] ?? [];
  return [...ALWAYS, ...own];
}

/** A run changed status: its lists, its issue and agent, and the "now" views. */
export const RUN_STATUS_RESOURCES: Resource[] = ['runs', 'run', 'issue', 'agent', 'agents', 'dashboard', 'counts', 'inbox'];
/** A run's log grew: only views showing a last log line. */
export const RUN_LOG_RESOURCES: Resource[] = ['dashboard', 'run'];

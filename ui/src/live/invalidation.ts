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
  // An agent's env references secrets and its skill sync changes who uses a skill.
  agent: ['agents', 'agent', 'org', 'secrets', 'skills'],
  approval: ['approvals', 'approval', 'agents', 'org'],
  heartbeat_run: ['runs', 'run', 'live-runs', 'issue', 'agent', 'agents'],
  cost_event: ['costs', 'agents', 'agent', 'budgets'],
  budget_policy: ['budgets', 'costs'],
  budget_incident: ['budgets', 'agents', 'agent'],
  finance_event: ['finance'],
  routine: ['routines', 'routine'],
  project: ['projects'],
  project_workspace: ['projects'],
  goal: ['goals'],
  label: ['labels'],
  company: ['company'],
  skill: ['skills'],
  secret: ['secrets'],
};

// Imports and updates are recorded on the company (one entry for many skills), not on a skill.
const BY_ACTION: Record<string, Resource[]> = {
  'company.skills_imported': ['skills'],
  'company.skill_updated': ['skills'],
};

export function resourcesForActivity(event: ActivityEvent): Resource[] {
  const own = BY_ENTITY[event.entityType] ?? BY_ENTITY[event.action.split('.')[0] ?? ''] ?? [];
  return [...ALWAYS, ...own, ...(BY_ACTION[event.action] ?? [])];
}

/** A run changed status: its lists, its issue and agent, and the "now" views. */
export const RUN_STATUS_RESOURCES: Resource[] = [
  'runs',
  'run',
  'live-runs',
  'issue',
  'agent',
  'agents',
  'dashboard',
  'counts',
  'inbox',
];
/** A run's log grew: only views showing a last log line. */
export const RUN_LOG_RESOURCES: Resource[] = ['live-runs'];

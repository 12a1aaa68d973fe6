// Which queries an event makes stale, named by the resources' own key factories (ui/src/queries/):
// a resource is declared once, where it is read, and listed here under the events that change it.
// Kept apart from the EventSource plumbing so the mapping can be read (and tested) on its own.
import type { CompanyResource } from '../api/keys';
import { activityKeys } from '../queries/activity';
import { agentKeys, agentListKeys } from '../queries/agents';
import { approvalKeys, approvalListKeys } from '../queries/approvals';
import { budgetKeys } from '../queries/budgets';
import { companyKeys } from '../queries/company';
import { costKeys } from '../queries/costs';
import { dashboardKeys } from '../queries/dashboard';
import { documentKeys } from '../queries/documents';
import { financeKeys } from '../queries/finance';
import { goalKeys } from '../queries/goals';
import { inboxKeys } from '../queries/inbox';
import { issueKeys, issueListKeys } from '../queries/issues';
import { labelKeys } from '../queries/labels';
import { companyPluginKeys } from '../queries/plugins';
import { projectKeys } from '../queries/projects';
import { routineKeys, routineListKeys } from '../queries/routines';
import { countKeys, liveRunKeys, runKeys } from '../queries/runs';
import { secretKeys } from '../queries/secrets';
import { skillKeys } from '../queries/skills';

export interface ActivityEvent {
  id: string;
  action: string;
  entityType: string;
  entityId: string;
}

/** What shows every change: the feed, the dashboard snapshot, the sidebar counts and the inbox. */
const ALWAYS: CompanyResource[] = [activityKeys, dashboardKeys, countKeys, inboxKeys];

const BY_ENTITY: Record<string, CompanyResource[]> = {
  // A routine run follows its execution issue (done completes it, cancelled fails it).
  issue: [issueListKeys, issueKeys, documentKeys, routineListKeys, routineKeys],
  comment: [issueKeys],
  document: [issueKeys, documentKeys],
  attachment: [issueKeys],
  // An agent's env references secrets and its skill sync changes who uses a skill.
  agent: [agentListKeys, agentKeys, secretKeys, skillKeys],
  // A decided hire activates (or terminates) its agent.
  approval: [approvalListKeys, approvalKeys, agentListKeys],
  heartbeat_run: [runKeys, liveRunKeys, issueKeys, agentKeys, agentListKeys],
  cost_event: [costKeys, agentListKeys, agentKeys, budgetKeys],
  budget_policy: [budgetKeys, costKeys],
  budget_incident: [budgetKeys, agentListKeys, agentKeys],
  finance_event: [financeKeys],
  routine: [routineListKeys, routineKeys],
  project: [projectKeys],
  project_workspace: [projectKeys],
  goal: [goalKeys],
  // Deleting a label strips it from issues.
  label: [labelKeys, issueListKeys, issueKeys],
  company: [companyKeys],
  skill: [skillKeys],
  secret: [secretKeys],
  // A company turned a plugin on or off: its consents and the UI its plugins contribute.
  plugin: [companyPluginKeys],
};

// Imports and updates are recorded on the company (one entry for many skills), not on a skill.
const BY_ACTION: Record<string, CompanyResource[]> = {
  'company.skills_imported': [skillKeys],
  'company.skill_updated': [skillKeys],
};

export function resourcesForActivity(event: ActivityEvent): CompanyResource[] {
  const own = BY_ENTITY[event.entityType] ?? BY_ENTITY[event.action.split('.')[0] ?? ''] ?? [];
  return [...ALWAYS, ...own, ...(BY_ACTION[event.action] ?? [])];
}

/** A run changed status: its lists, its issue and agent, and the "now" views. */
export const RUN_STATUS_RESOURCES: CompanyResource[] = [
  runKeys,
  liveRunKeys,
  issueKeys,
  agentKeys,
  agentListKeys,
  dashboardKeys,
  countKeys,
  inboxKeys,
];
/** A run's log grew: only views showing a last log line. */
export const RUN_LOG_RESOURCES: CompanyResource[] = [liveRunKeys];

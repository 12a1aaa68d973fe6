// An activity entry as a sentence: who ("You", "Dev", "The engine"), what they did, and to what
// ("moved NOR-12 to Done", "approved Hire Gus"). Names come from the agent list and the entry's
// details; ids never become text (the subject is linked instead, activity-links.ts).
import { APPROVAL_TYPE_LABELS } from '../../lib/approval-labels';
import { enumLabel, formatMoney } from '../../lib/format';
import { issuePriorities, issueStatuses } from '../../lib/statuses';
import { entryLabel } from './activity-links';

export interface Entry {
  action: string;
  actorType: 'agent' | 'user' | 'system' | 'plugin';
  actorId: string;
  agentId: string | null;
  entityType: string;
  entityId: string;
  runId: string | null;
  details: { [key: string]: unknown } | null;
}

export interface Names {
  /** An agent's name, when the company's agent list knows it. */
  agent: (agentId: string) => string | undefined;
  /** The signed-in board user's id: their entries read "You". */
  me: string | undefined;
}

/** The sentence in three parts: the subject is rendered as a link where it has a page. */
export interface Sentence {
  actor: string;
  verb: string;
  subject: string;
  /** What follows the subject ("to Done"), possibly empty. */
  rest: string;
}

export function actorWords(entry: Pick<Entry, 'actorType' | 'actorId'>, names: Names): string {
  if (entry.actorType === 'agent') return names.agent(entry.actorId) ?? 'An agent';
  if (entry.actorType === 'user') return entry.actorId === names.me ? 'You' : 'A board member';
  // The entry names a plugin by id only (its key is in the plugin list, not the entry).
  if (entry.actorType === 'plugin') return 'A plugin';
  return `The ${enumLabel(entry.actorId).toLowerCase()}`;
}

const text = (details: Entry['details'], key: string): string | undefined => {
  const value = details?.[key];
  return typeof value === 'string' && value ? value : undefined;
};

/** What the entry is about, named: "NOR-12", "Gus", "Hire Gus", "Dev's run". */
export function subjectWords(entry: Entry, names: Names): string {
  const details = entry.details;
  if (entry.entityType === 'approval') {
    const type = text(details, 'type');
    const hired = text(details, 'agentId');
    if (type === 'hire_agent') return hired && names.agent(hired) ? `Hire ${names.agent(hired)}` : 'a hire';
    return type ? (APPROVAL_TYPE_LABELS[type] ?? enumLabel(type)) : 'an approval';
  }
  if (entry.entityType === 'heartbeat_run') {
    const agentId = entry.agentId ?? text(details, 'agentId');
    const name = agentId ? names.agent(agentId) : undefined;
    return name ? `${name}'s run` : 'a run';
  }
  if (entry.entityType === 'cost_event') {
    // "You reported $1.20 of Dev's spend on claude-sonnet": the money and whose it is, never the row.
    const cents = details?.costCents;
    const agentId = text(details, 'agentId');
    const whose = agentId && names.agent(agentId) ? ` of ${names.agent(agentId)}'s spend` : ' of spend';
    const model = text(details, 'model');
    return `${typeof cents === 'number' ? formatMoney(cents) : 'a cost'}${whose}${model ? ` on ${model}` : ''}`;
  }
  if (entry.entityType === 'issue')
    return text(details, 'identifier') ?? entryLabel(entry, (id) => names.agent(id) ?? 'an agent');
  return entryLabel(entry, (id) => names.agent(id) ?? 'an agent');
}

interface Change {
  from: unknown;
  to: unknown;
}
const isChange = (value: unknown): value is Change =>
  typeof value === 'object' && value !== null && 'from' in value && 'to' in value;

/** An issue update: a status move, an assignment, a priority, else the fields changed, in words. */
function issueUpdate(entry: Entry, names: Names): Pick<Sentence, 'verb' | 'rest'> {
  const changes = entry.details?.changes;
  const fields = changes && typeof changes === 'object' ? (changes as Record<string, unknown>) : {};
  const status = fields.status;
  const assignee = fields.assigneeAgentId;
  const priority = fields.priority;
  const others = Object.keys(fields).filter((field) => !['status', 'assigneeAgentId', 'priority'].includes(field));
  const also =
    others.length > 0 ? ` and changed its ${others.map((field) => enumLabel(field).toLowerCase()).join(', ')}` : '';
  if (isChange(status) && typeof status.to === 'string' && issueStatuses.is(status.to))
    return { verb: 'moved', rest: `to ${issueStatuses.label(status.to)}${also}` };
  if (isChange(assignee))
    return typeof assignee.to === 'string'
      ? { verb: 'assigned', rest: `to ${names.agent(assignee.to) ?? 'an agent'}${also}` }
      : { verb: 'unassigned', rest: also };
  if (isChange(priority) && typeof priority.to === 'string' && issuePriorities.is(priority.to))
    return { verb: 'set the priority of', rest: `to ${issuePriorities.label(priority.to)}${also}` };
  if (others.length > 0)
    return { verb: `changed the ${others.map((field) => enumLabel(field).toLowerCase()).join(', ')} of`, rest: '' };
  return { verb: 'updated', rest: '' };
}

/** Verbs that read better than the action's own words. */
const VERBS: Record<string, string> = {
  'approval.created': 'asked for',
  'approval.approved': 'approved',
  'approval.rejected': 'rejected',
  'approval.revision_requested': 'asked for a revision of',
  'approval.resubmitted': 'resubmitted',
  'approval.comment_added': 'commented on',
  'issue.comment_added': 'commented on',
  'issue.checked_out': 'checked out',
  'heartbeat_run.started': 'started',
  'heartbeat_run.succeeded': 'finished',
  'heartbeat_run.failed': 'saw the failure of',
  'heartbeat_run.timed_out': 'saw the timeout of',
  'heartbeat_run.cancelled': 'cancelled',
  'agent.hire_requested': 'asked to hire',
  'agent.wakeup_requested': 'woke',
  'cost.reported': 'reported',
  'budget.stop_applied': 'stopped',
  'budget.warn_threshold_reached': 'reached a warning threshold, opening',
  'budget.hard_limit_reached': 'reached a hard limit, opening',
  'budget.policy_created': 'set',
  'budget.policy_updated': 'changed',
  'budget.incident_resolved': 'resolved',
  'agent.budget_updated': 'changed the budget of',
  'agent.key_created': 'created a key for',
  'agent.key_revoked': 'revoked a key of',
  'agent.permissions_updated': 'changed the permissions of',
  'agent.signing_secret_rotated': 'rotated the signing secret of',
  'agent.skills_synced': 'synced the skills of',
  'agent.wake_rate_limited': 'held back wakes of',
  'company.branding_updated': 'changed the branding of',
  'company.logo_uploaded': 'uploaded a logo for',
  'company.skills_imported': 'imported skills into',
  'company.skill_file_updated': 'edited a skill file of',
  'issue.attachment_added': 'attached a file to',
  'issue.attachment_deleted': 'removed a file from',
  'issue.document_created': 'added a document to',
  'issue.document_updated': 'edited a document of',
  'issue.document_deleted': 'deleted a document of',
  'project.workspace_created': 'added a workspace to',
  'project.workspace_updated': 'changed a workspace of',
  'project.workspace_deleted': 'removed a workspace from',
  'routine.trigger_created': 'added a trigger to',
  'routine.trigger_updated': 'changed a trigger of',
  'routine.trigger_deleted': 'removed a trigger from',
  'routine.trigger_secret_rotated': 'rotated a trigger secret of',
  'routine.run_recorded': 'ran',
};

export function entrySentence(entry: Entry, names: Names): Sentence {
  const actor = actorWords(entry, names);
  const subject = subjectWords(entry, names);
  if (entry.action === 'issue.updated') return { actor, subject, ...issueUpdate(entry, names) };
  const verb = VERBS[entry.action] ?? defaultVerb(entry.action);
  return { actor, verb, subject, rest: '' };
}

/** `issue.checked_out` → "checked out"; `spoons.counted` → "counted"; a bare action → its words. */
function defaultVerb(action: string): string {
  const [, ...rest] = action.split('.');
  return enumLabel(rest.join(' ') || action).toLowerCase();
}

/** The sentence as one line of text (CSV, accessible names). */
export const sentenceText = ({ actor, verb, subject, rest }: Sentence): string =>
  [actor, verb, subject, rest].filter(Boolean).join(' ');

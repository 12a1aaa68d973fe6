// Where an activity entry points: the page of the record it is about, and that record's short name.
import { runHref } from '../runs/run-href';

export interface EntryRef {
  entityType: string;
  entityId: string;
  agentId: string | null;
  details?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

function detail(details: unknown, field: string): string | null {
  if (!details || typeof details !== 'object') return null;
  const value = (details as Record<string, unknown>)[field];
  return typeof value === 'string' && value ? value : null;
}

/** The in-app path of a record of this kind, or null when that record has no page. */
export function recordLink(companyId: string, entityType: string, id: string): string | null {
  const base = `/c/${companyId}`;
  switch (entityType) {
    case 'issue':
      return `${base}/issues/${id}`;
    case 'agent':
      return UUID.test(id) ? `${base}/agents/${id}` : null;
    case 'approval':
      return UUID.test(id) ? `${base}/approvals/${id}` : null;
    case 'heartbeat_run':
      return UUID.test(id) ? runHref(companyId, id) : null;
    case 'project':
      return UUID.test(id) ? `${base}/projects/${id}` : null;
    case 'routine':
      return UUID.test(id) ? `${base}/routines/${id}` : null;
    case 'skill':
      return UUID.test(id) ? `${base}/skills/${id}` : null;
    case 'goal':
      return `${base}/goals`;
    case 'secret':
      return `${base}/secrets`;
    case 'budget_policy':
    case 'budget_incident':
      return `${base}/budgets`;
    case 'company':
      return `${base}/dashboard`;
    default:
      return null;
  }
}

/** The in-app path of what the entry is about, or null when that record has no page. */
export const entryLink = (companyId: string, entry: EntryRef): string | null =>
  recordLink(companyId, entry.entityType, entry.entityId);

/** A short name for the record: an issue's identifier, an agent's name, else its kind and name; never an id. */
export function entryLabel(entry: EntryRef, agentName: (id: string) => string): string {
  const kind = entry.entityType.replaceAll('_', ' ');
  if (entry.entityType === 'issue') {
    const identifier = detail(entry.details, 'identifier');
    const title = detail(entry.details, 'title');
    if (identifier) return title ? `${identifier} ${title}` : identifier;
  }
  if (entry.entityType === 'agent') return detail(entry.details, 'name') ?? agentName(entry.entityId);
  if (entry.entityType === 'company') return 'the company';
  const name = detail(entry.details, 'name') ?? detail(entry.details, 'title');
  if (name) return `${kind} ${name}`;
  // A record named by a word (a system component, a key) rather than an id may show it.
  return UUID.test(entry.entityId) ? `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}` : `${kind} ${entry.entityId}`;
}

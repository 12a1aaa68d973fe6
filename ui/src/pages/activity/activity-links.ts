// Where an activity entry points: the page of the record it is about.
import { runHref } from '../../components/runs/run-href';

export interface EntryRef {
  entityType: string;
  entityId: string;
  agentId: string | null;
  details?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function detail(details: unknown, field: string): string | null {
  if (!details || typeof details !== 'object') return null;
  const value = (details as Record<string, unknown>)[field];
  return typeof value === 'string' && value ? value : null;
}

/** The in-app path of what the entry is about, or null when that record has no page. */
export function entryLink(companyId: string, entry: EntryRef): string | null {
  const base = `/c/${companyId}`;
  const id = entry.entityId;
  switch (entry.entityType) {
    case 'issue':
      return `${base}/issues/${id}`;
    case 'agent':
      return UUID.test(id) ? `${base}/agents/${id}` : null;
    case 'approval':
      return UUID.test(id) ? `${base}/approvals/${id}` : null;
    case 'heartbeat_run':
      return UUID.test(id) ? runHref(companyId, id) : null;
    case 'project':
      return `${base}/issues?projectId=${encodeURIComponent(id)}`;
    case 'company':
      return `${base}/dashboard`;
    default:
      return null;
  }
}

/** A short name for the record: an issue's identifier, an agent's name, else its kind and short id. */
export function entryLabel(entry: EntryRef, agentName: (id: string) => string): string {
  const kind = entry.entityType.replaceAll('_', ' ');
  if (entry.entityType === 'issue') {
    const identifier = detail(entry.details, 'identifier');
    const title = detail(entry.details, 'title');
    if (identifier) return title ? `${identifier} ${title}` : identifier;
  }
  if (entry.entityType === 'agent') return detail(entry.details, 'name') ?? agentName(entry.entityId);
  if (entry.entityType === 'heartbeat_run') return `run ${entry.entityId.slice(0, 8)}`;
  const name = detail(entry.details, 'name') ?? detail(entry.details, 'title');
  return name ? `${kind} ${name}` : `${kind} ${entry.entityId.slice(0, 8)}`;
}

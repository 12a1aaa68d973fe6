// An activity entry in words ("Scout checked out ACM-3"), and where it leads. Entries carry ids and
// the details their writers chose; names come from the agent list (useAgentNames) and those details.
import { runHref } from '../../components/runs/run-href';

type KnownName = (agentId: string) => string | undefined;
export interface ActivityEntry {
  action: string;
  actorType: 'agent' | 'user' | 'system';
  actorId: string;
  agentId: string | null;
  entityType: string;
  entityId: string;
  details: { [key: string]: unknown } | null;
}

export function actorName(entry: ActivityEntry, knownName: KnownName): string {
  if (entry.actorType === 'agent') return knownName(entry.actorId) ?? 'An agent';
  if (entry.actorType === 'user') return 'The board';
  return entry.actorId.charAt(0).toUpperCase() + entry.actorId.slice(1);
}

/** `issue.checked_out` → "checked out". */
export function verb(action: string): string {
  const [, ...rest] = action.split('.');
  return (rest.join(' ') || action).replaceAll('_', ' ');
}

/** What the entry is about, in the most telling words its details allow. */
export function subjectName(entry: ActivityEntry, knownName: KnownName): string {
  const details = entry.details ?? {};
  const text = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : undefined);
  if (entry.entityType === 'agent') return knownName(entry.entityId) ?? text('name') ?? 'an agent';
  const runAgent = runAgentId(entry);
  if (entry.entityType === 'heartbeat_run' && runAgent) return `${knownName(runAgent) ?? 'an agent'}'s run`;
  const identifier = text('identifier');
  const title = text('title');
  if (identifier) return title ? `${identifier} ${title}` : identifier;
  return title ?? text('name') ?? entry.entityType.replaceAll('_', ' ');
}

/** The agent of a run entry: the entry's own, else the one its details name (the engine's entries). */
function runAgentId(entry: ActivityEntry): string | null {
  const fromDetails = entry.details?.agentId;
  return entry.agentId ?? (typeof fromDetails === 'string' ? fromDetails : null);
}

/** The board page of the entry's subject, when it has one. */
export function subjectPath(companyId: string, entry: ActivityEntry): string | null {
  const base = `/c/${companyId}`;
  switch (entry.entityType) {
    case 'issue':
      return `${base}/issues/${entry.entityId}`;
    case 'agent':
      return `${base}/agents/${entry.entityId}`;
    case 'approval':
      return `${base}/approvals/${entry.entityId}`;
    case 'heartbeat_run':
      return runHref(companyId, entry.entityId);
    default:
      return null;
  }
}

// What the live stream says that concerns the viewer, as toasts: a run of the issue on show finishing,
// its status or assignee changed by someone else, an approval decided by someone else. Pure: an
// activity entry in, a notice (or nothing) out; a burst becomes one notice per kind ("3 runs
// finished on NOR-12"). The viewer's own changes give none: their action already said it was done.
import type { paths } from '../../api/schema';
import { APPROVAL_TYPE_LABELS } from '../../lib/approval-labels';
import { issueStatuses } from '../../lib/statuses';
import { runStatusLabel } from '../runs/run-status';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** An activity entry as the stream sends it (the activity feed's shape). */
export type StreamEntry = Json<paths['/api/companies/{companyId}/activity']['get']['responses'][200]>[number];

export type NoticeKind = 'run' | 'change' | 'approval';

export interface LiveNotice {
  kind: NoticeKind;
  tone: 'success' | 'error' | 'info';
  title: string;
  description?: string;
  /** Where the notice leads (the run, the approval) and the words of its button. */
  link?: { label: string; to: string };
}

export interface Viewer {
  companyId: string;
  /** The signed-in board user. */
  userId: string | null;
  /** The issue on show, if an issue page is. */
  issue: { id: string; identifier: string } | null;
  agentName: (agentId: string) => string | undefined;
}

const FINISHED = new Set(['succeeded', 'failed', 'timed_out', 'cancelled']);
const DECIDED: Record<string, string> = {
  'approval.approved': 'approved',
  'approval.rejected': 'rejected',
  'approval.revision_requested': 'sent back for revision',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

/** Who acted, in words. The API names a board user by id only: "a board member". */
function actorName(entry: StreamEntry, viewer: Viewer): string {
  if (entry.actorType === 'agent') return viewer.agentName(entry.actorId) ?? 'an agent';
  if (entry.actorType === 'user') return 'a board member';
  if (entry.actorType === 'plugin') return 'a plugin';
  return 'Boardroom';
}

export function noticeOf(entry: StreamEntry, viewer: Viewer): LiveNotice | null {
  if (entry.actorType === 'user' && entry.actorId === viewer.userId) return null;
  const details = entry.details ?? {};
  const [entityType, verb = ''] = entry.action.split('.');

  if (entityType === 'heartbeat_run' && FINISHED.has(verb)) {
    const issue = viewer.issue;
    if (!issue || details.issueId !== issue.id) return null;
    const agent = (entry.agentId && viewer.agentName(entry.agentId)) ?? 'An agent';
    const why =
      text(details.error) ??
      (typeof details.exitCode === 'number' ? `it ended with exit code ${details.exitCode}` : null);
    const outcome = verb === 'failed' ? `failed${why ? `: ${why}` : ''}` : runStatusLabel(verb).toLowerCase();
    return {
      kind: 'run',
      tone: verb === 'succeeded' ? 'success' : verb === 'cancelled' ? 'info' : 'error',
      title: `${agent}'s run on ${issue.identifier} ${outcome}`,
      link: { label: 'Open run', to: `/c/${viewer.companyId}/runs/${entry.entityId}` },
    };
  }

  if (entry.action === 'issue.updated' && viewer.issue && entry.entityId === viewer.issue.id) {
    const changes = (details.changes ?? {}) as Record<string, { to?: unknown } | undefined>;
    const by = actorName(entry, viewer);
    const { identifier } = viewer.issue;
    const status = text(changes.status?.to);
    if (status && issueStatuses.is(status))
      return { kind: 'change', tone: 'info', title: `${identifier} moved to ${issueStatuses.label(status)} by ${by}` };
    if (changes.assigneeAgentId || changes.assigneeUserId) {
      const agentId = text(changes.assigneeAgentId?.to);
      const to = agentId
        ? (viewer.agentName(agentId) ?? 'an agent')
        : text(changes.assigneeUserId?.to)
          ? 'a board member'
          : null;
      return {
        kind: 'change',
        tone: 'info',
        title: to ? `${identifier} assigned to ${to} by ${by}` : `${identifier} unassigned by ${by}`,
      };
    }
    return null;
  }

  const decided = DECIDED[entry.action];
  if (decided) {
    const type = APPROVAL_TYPE_LABELS[String(details.type)] ?? 'An approval';
    return {
      kind: 'approval',
      tone: 'info',
      title: `${type} ${decided} by ${actorName(entry, viewer)}`,
      link: { label: 'Open approval', to: `/c/${viewer.companyId}/approvals/${entry.entityId}` },
    };
  }
  return null;
}

/** One notice per kind: a kind heard more than once in the window is said once, counted. */
export function collapse(notices: LiveNotice[], issueIdentifier: string | null): LiveNotice[] {
  const byKind = new Map<NoticeKind, LiveNotice[]>();
  for (const notice of notices) byKind.set(notice.kind, [...(byKind.get(notice.kind) ?? []), notice]);
  return [...byKind.entries()].map(([kind, group]) => {
    const [only] = group;
    if (group.length === 1 && only) return only;
    const on = issueIdentifier ? ` on ${issueIdentifier}` : '';
    const failed = group.filter((notice) => notice.tone === 'error').length;
    const description = group
      .slice(-3)
      .map((notice) => notice.title)
      .join('; ');
    if (kind === 'run')
      return {
        kind,
        tone: failed > 0 ? 'error' : 'success',
        title: `${group.length} runs finished${on}${failed > 0 ? `, ${failed} not successfully` : ''}`,
        description,
      };
    if (kind === 'change') return { kind, tone: 'info', title: `${group.length} changes${on}`, description };
    return { kind, tone: 'info', title: `${group.length} approvals decided`, description };
  });
}

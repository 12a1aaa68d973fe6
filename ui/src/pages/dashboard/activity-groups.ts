// Engine run entries collapsed: a run writes "started" and then its end, and an agent at work on one
// issue runs again and again, so consecutive run entries of the same agent and issue become one line
// ("Dev ran 5 times on NOR-1, 3 succeeded, 2 failed"). Every other entry stays a line of its own.
import type { Entry as ActivityEntry } from '../../components/activity/activity-sentence';

type Entry = ActivityEntry & { id: string; createdAt: string };

export interface RunGroup<E extends Entry = Entry> {
  kind: 'runs';
  /** The newest entry of the group (its key, its time). */
  newest: E;
  agentId: string;
  issueId: string | null;
  /** Each run's outcome: its end status, or 'running' while only its start is listed. */
  outcomes: string[];
}

export type ActivityLine<E extends Entry = Entry> = { kind: 'entry'; entry: E } | RunGroup<E>;

const text = (entry: ActivityEntry, key: string) =>
  typeof entry.details?.[key] === 'string' ? (entry.details[key] as string) : null;

/** Entries newest first in, lines newest first out. */
export function groupRunEntries<E extends Entry>(entries: E[]): ActivityLine<E>[] {
  const lines: ActivityLine<E>[] = [];
  let group: RunGroup<E> | null = null;
  /** The runs the current group has an outcome for. */
  let seen = new Set<string>();
  for (const entry of entries) {
    const agentId = entry.agentId ?? text(entry, 'agentId');
    if (entry.entityType !== 'heartbeat_run' || !agentId) {
      group = null;
      lines.push({ kind: 'entry', entry });
      continue;
    }
    const issueId = text(entry, 'issueId');
    if (!group || group.agentId !== agentId || group.issueId !== issueId) {
      group = { kind: 'runs', newest: entry, agentId, issueId, outcomes: [] };
      seen = new Set();
      lines.push(group);
    }
    const status = entry.action.replace(/^heartbeat_run\./, '');
    // Newest first: a run's end is seen before its start, and the end is its outcome.
    if (!seen.has(entry.entityId)) {
      seen.add(entry.entityId);
      group.outcomes.push(status === 'started' ? 'running' : status);
    }
  }
  return lines;
}

const OUTCOME_WORDS: Record<string, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  timed_out: 'timed out',
  cancelled: 'cancelled',
  running: 'still running',
};
const ORDER = ['succeeded', 'failed', 'timed_out', 'cancelled', 'running'];

/** "ran 5 times on NOR-1, all succeeded" (the agent's name and the issue are put in by the caller). */
export function runOutcomesInWords(outcomes: string[]): { times: string; outcome: string } {
  const count = outcomes.length;
  const times = count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
  const tally = new Map<string, number>();
  for (const outcome of outcomes) tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
  const [only] = tally.keys();
  if (tally.size === 1 && only) {
    const words = OUTCOME_WORDS[only] ?? only;
    return { times, outcome: count === 1 ? words : `all ${words}` };
  }
  const parts = [...tally.entries()]
    .sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b))
    .map(([outcome, n]) => `${n} ${OUTCOME_WORDS[outcome] ?? outcome}`);
  return { times, outcome: parts.join(', ') };
}

// Agent mentions in comment text: "@<agent name>", case-insensitive, the name ending at a
// non-alphanumeric character (names may contain spaces, so "@Ada Lovelace" names that agent).
import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents } from '../../db/schema/index.ts';

interface Candidate {
  id: string;
  name: string;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Which of `candidates` the text mentions. Where names overlap at one at-sign ("@Bob" and
 * "@Bob Smith"), only the longest matching name counts, so "@Bob Smith" does not also wake Bob.
 */
export function mentionedIn(text: string, candidates: Candidate[]): Set<string> {
  const lower = text.toLowerCase();
  // at-sign position -> the longest name matched there
  const best = new Map<number, { id: string; length: number }>();
  for (const candidate of candidates) {
    const needle = `@${candidate.name.toLowerCase()}`;
    if (needle.length < 2) continue;
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
      const next = lower.charAt(at + needle.length);
      if (next && WORD_CHAR.test(next)) continue;
      const current = best.get(at);
      if (!current || current.length < needle.length) best.set(at, { id: candidate.id, length: needle.length });
    }
  }
  return new Set([...best.values()].map((m) => m.id));
}

/**
 * Ids of the company's non-terminated agents mentioned in `text`. One query: the database keeps
 * only agents whose "@name" occurs in the text at all; the boundary rule is applied here.
 */
export async function findMentionedAgentIds(tx: DbOrTx, companyId: string, text: string): Promise<string[]> {
  if (!text.includes('@')) return [];
  const candidates = await tx
    .select({ id: agents.id, name: agents.name })
    .from(agents)
    .where(
      and(
        eq(agents.companyId, companyId),
        ne(agents.status, 'terminated'),
        sql`strpos(lower(${text}), '@' || lower(${agents.name})) > 0`,
      ),
    );
  return [...mentionedIn(text, candidates)];
}

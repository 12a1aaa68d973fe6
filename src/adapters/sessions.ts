// Runtime sessions per (agent, issue, adapter type): what lets the next wake about an issue resume
// the CLI conversation it had (claude --resume, codex exec resume) while another issue starts fresh.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { agentTaskSessions } from '../db/schema/index.ts';

export interface TaskSessionKey {
  companyId: string;
  agentId: string;
  /** The run's issue, or null for a run about no issue (stored as ''). */
  issueId: string | null;
  adapterType: string;
}

/** Session ids come from a child process's output: bounded before they are stored or passed back as an argument. */
export const MAX_SESSION_ID_CHARS = 512;

const where = (key: TaskSessionKey) =>
  and(
    eq(agentTaskSessions.agentId, key.agentId),
    eq(agentTaskSessions.taskKey, key.issueId ?? ''),
    eq(agentTaskSessions.adapterType, key.adapterType),
  );

export async function loadTaskSession(db: Db, key: TaskSessionKey): Promise<string | null> {
  const [row] = await db.select({ sessionId: agentTaskSessions.sessionId }).from(agentTaskSessions).where(where(key));
  return row?.sessionId ?? null;
}

/** Stores the session the adapter reported (null or an unusable id: forgets it). */
export async function saveTaskSession(db: Db, key: TaskSessionKey, sessionId: string | null): Promise<void> {
  if (sessionId === null || sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_CHARS) {
    await db.delete(agentTaskSessions).where(where(key));
    return;
  }
  await db
    .insert(agentTaskSessions)
    .values({
      companyId: key.companyId,
      agentId: key.agentId,
      taskKey: key.issueId ?? '',
      adapterType: key.adapterType,
      sessionId,
    })
    .onConflictDoUpdate({
      target: [agentTaskSessions.agentId, agentTaskSessions.taskKey, agentTaskSessions.adapterType],
      set: { sessionId, updatedAt: sql`now()` },
    });
}

// Credential resolution in SPEC order: session, board key, agent key, agent JWT.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { agentApiKeys, agents, boardApiKeys, boardSessions, users } from '../../db/schema/index.ts';
import type { AgentActor, BoardActor } from '../../core/actor.ts';
import { AGENT_KEY_PREFIX, BOARD_KEY_PREFIX, hashToken } from '../../lib/tokens.ts';
import { verifyAgentJwt } from './jwt.ts';

// Agents that may not authenticate at all (SPEC section 5).
const LOCKED_OUT_STATUSES = new Set(['terminated', 'pending_approval']);
// lastUsedAt is written at most once a minute per key so hot agents do not turn every read into a write.
const LAST_USED_GRANULARITY = sql`now() - interval '60 seconds'`;
const stale = (column: typeof boardApiKeys.lastUsedAt | typeof agentApiKeys.lastUsedAt) =>
  sql<boolean>`(${column} is null or ${column} < ${LAST_USED_GRANULARITY})`;
const actorAgentColumns = {
  id: agents.id,
  companyId: agents.companyId,
  role: agents.role,
  adapterType: agents.adapterType,
  status: agents.status,
};

/**
 * Every request resolves its credential, so these lookups run as named prepared statements (no SQL
 * building, parsing or planning per request). Each reads the credential with its owner in one
 * statement; revocation and lockout are read from the database every time (no cache), so they take
 * effect at once on every replica.
 */
const lookups = preparedPerDb((db: Db) => ({
  boardKey: db
    .select({
      keyId: boardApiKeys.id,
      userId: users.id,
      isInstanceOwner: users.isInstanceOwner,
      stale: stale(boardApiKeys.lastUsedAt),
    })
    .from(boardApiKeys)
    .innerJoin(users, eq(users.id, boardApiKeys.userId))
    .where(and(eq(boardApiKeys.keyHash, sql.placeholder('hash')), isNull(boardApiKeys.revokedAt)))
    .prepare('auth_board_key'),
  agentKey: db
    .select({ keyId: agentApiKeys.id, stale: stale(agentApiKeys.lastUsedAt), agent: actorAgentColumns })
    .from(agentApiKeys)
    .innerJoin(agents, eq(agents.id, agentApiKeys.agentId))
    .where(and(eq(agentApiKeys.keyHash, sql.placeholder('hash')), isNull(agentApiKeys.revokedAt)))
    .prepare('auth_agent_key'),
  agent: db
    .select(actorAgentColumns)
    .from(agents)
    .where(eq(agents.id, sql.placeholder('id')))
    .prepare('auth_agent'),
}));

export async function resolveBearer(
  db: Db,
  jwtSecret: Uint8Array,
  token: string,
): Promise<BoardActor | AgentActor | null> {
  if (token.startsWith(BOARD_KEY_PREFIX)) return resolveBoardKey(db, token);
  if (token.startsWith(AGENT_KEY_PREFIX)) return resolveAgentKey(db, token);
  if (token.split('.').length === 3) return resolveAgentJwt(db, jwtSecret, token);
  return null;
}

async function resolveBoardKey(db: Db, token: string): Promise<BoardActor | null> {
  const [row] = await lookups(db).boardKey.execute({ hash: hashToken(token) });
  if (!row) return null;
  // The write (and its round trip) only once a minute per key, not on every request.
  if (row.stale) {
    await db
      .update(boardApiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(boardApiKeys.id, row.keyId), stale(boardApiKeys.lastUsedAt)));
  }
  return {
    kind: 'board',
    userId: row.userId,
    isInstanceOwner: row.isInstanceOwner,
    via: 'board_key',
    keyId: row.keyId,
  };
}

async function resolveAgentKey(db: Db, token: string): Promise<AgentActor | null> {
  const [row] = await lookups(db).agentKey.execute({ hash: hashToken(token) });
  if (!row || LOCKED_OUT_STATUSES.has(row.agent.status)) return null;
  if (row.stale) {
    await db
      .update(agentApiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(agentApiKeys.id, row.keyId), stale(agentApiKeys.lastUsedAt)));
  }
  const { agent } = row;
  return {
    kind: 'agent',
    agentId: agent.id,
    companyId: agent.companyId,
    role: agent.role,
    adapterType: agent.adapterType,
    via: 'agent_key',
    keyId: row.keyId,
  };
}

async function resolveAgentJwt(db: Db, secret: Uint8Array, token: string): Promise<AgentActor | null> {
  const claims = await verifyAgentJwt(secret, token);
  if (!claims) return null;
  const [agent] = await lookups(db).agent.execute({ id: claims.agentId });
  if (!agent || agent.companyId !== claims.companyId || LOCKED_OUT_STATUSES.has(agent.status)) return null;
  return {
    kind: 'agent',
    agentId: agent.id,
    companyId: agent.companyId,
    role: agent.role,
    adapterType: agent.adapterType,
    via: 'agent_jwt',
    runId: claims.runId,
  };
}

export async function resolveSession(db: Db, token: string): Promise<BoardActor | null> {
  const [row] = await db
    .select({ userId: users.id, isInstanceOwner: users.isInstanceOwner })
    .from(boardSessions)
    .innerJoin(users, eq(users.id, boardSessions.userId))
    .where(
      and(
        eq(boardSessions.tokenHash, hashToken(token)),
        eq(boardSessions.kind, 'session'),
        gt(boardSessions.expiresAt, sql`now()`),
      ),
    );
  return row ? { kind: 'board', userId: row.userId, isInstanceOwner: row.isInstanceOwner, via: 'session' } : null;
}

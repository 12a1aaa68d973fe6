// Board users, board API keys and browser sessions.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { boardApiKeys, boardSessions, companyMemberships, users } from '../../db/schema/index.ts';
import { BOARD_KEY_PREFIX, hashToken, newToken } from '../../lib/tokens.ts';
import { oneRow } from '../../db/rows.ts';

const LOGIN_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** The instance owner: created on first start, a board user with access to every company. */
export async function ensureInstanceOwner(db: Db): Promise<{ id: string; created: boolean }> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.isInstanceOwner, true)).limit(1);
  if (existing) return { id: existing.id, created: false };
  const owner = oneRow(
    await db.insert(users).values({ name: 'Instance owner', isInstanceOwner: true }).returning({ id: users.id }),
    'instance owner',
  );
  return { id: owner.id, created: true };
}

export async function createBoardKey(db: DbOrTx, userId: string, name: string) {
  const token = newToken(BOARD_KEY_PREFIX);
  const key = oneRow(
    await db
      .insert(boardApiKeys)
      .values({ userId, name, keyHash: hashToken(token), displayPrefix: token.slice(0, BOARD_KEY_PREFIX.length + 4) })
      .returning(),
    'board key',
  );
  return { key, token };
}

export function listBoardKeys(db: DbOrTx, userId: string) {
  return db
    .select()
    .from(boardApiKeys)
    .where(eq(boardApiKeys.userId, userId))
    .orderBy(boardApiKeys.createdAt)
    .limit(500);
}

export async function revokeBoardKey(db: DbOrTx, userId: string, keyId: string) {
  const [key] = await db
    .update(boardApiKeys)
    .set({ revokedAt: sql`coalesce(${boardApiKeys.revokedAt}, now())` })
    .where(and(eq(boardApiKeys.id, keyId), eq(boardApiKeys.userId, userId)))
    .returning();
  return key ?? null;
}

/** A one-time login token for the URL printed at start; it becomes a session cookie when used. */
export async function createLoginToken(db: DbOrTx, userId: string): Promise<string> {
  const token = newToken('login_');
  await db.insert(boardSessions).values({
    userId,
    tokenHash: hashToken(token),
    kind: 'login',
    expiresAt: new Date(Date.now() + LOGIN_TOKEN_TTL_MS),
  });
  return token;
}

/** Exchanges a login token (once) for a session token. Null when unknown, used or expired. */
export async function consumeLoginToken(db: Db, loginToken: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [login] = await tx
      .update(boardSessions)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(boardSessions.tokenHash, hashToken(loginToken)),
          eq(boardSessions.kind, 'login'),
          isNull(boardSessions.usedAt),
          gt(boardSessions.expiresAt, sql`now()`),
        ),
      )
      .returning();
    if (!login) return null;
    const session = newToken('sess_');
    await tx.insert(boardSessions).values({
      userId: login.userId,
      tokenHash: hashToken(session),
      kind: 'session',
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    });
    return session;
  });
}

/** Ends a browser session (sign-out): the token stops working at once. */
export async function endSession(db: DbOrTx, sessionToken: string): Promise<void> {
  await db
    .update(boardSessions)
    .set({ expiresAt: sql`now()` })
    .where(and(eq(boardSessions.tokenHash, hashToken(sessionToken)), eq(boardSessions.kind, 'session')));
}

/** At most 1000, like GET /api/companies: a response lists them, so the count bounds its size. */
export async function companyIdsOfUser(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ companyId: companyMemberships.companyId })
    .from(companyMemberships)
    .where(eq(companyMemberships.userId, userId))
    .limit(1000);
  return rows.map((r) => r.companyId);
}

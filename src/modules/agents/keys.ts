// Agent API keys: opaque, shown once, stored as SHA-256; revoked keys are kept for the audit trail.
import { and, desc, eq, sql } from 'drizzle-orm';
import { agentApiKeys } from '../../db/schema/index.ts';
import { AGENT_KEY_PREFIX, hashToken, newToken } from '../../lib/tokens.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import type { Ctx } from '../../core/context.ts';
import { type AgentKey, oneRow } from '../../db/rows.ts';
import { lockAgent } from '../../core/agent-access.ts';
import { agentFor } from './policy.ts';

// Agents that may not authenticate (SPEC section 5) may not get keys either.
const KEYLESS_STATUSES = new Set(['pending_approval', 'terminated']);
// A natural bound for the list: nobody needs more live and revoked keys than this on one agent.
const MAX_LISTED_KEYS = 500;

export async function listKeys(ctx: Ctx, agentRef: string): Promise<AgentKey[]> {
  const { id: agentId } = await agentFor(ctx, 'agent.listKeys', agentRef);
  return ctx.db
    .select()
    .from(agentApiKeys)
    .where(eq(agentApiKeys.agentId, agentId))
    .orderBy(desc(agentApiKeys.createdAt))
    .limit(MAX_LISTED_KEYS);
}

export async function createKey(ctx: Ctx, agentRef: string, name: string): Promise<{ key: AgentKey; token: string }> {
  const { id: agentId } = await agentFor(ctx, 'agent.createKey', agentRef);
  return ctx.db.transaction(async (tx) => {
    // Locked so a concurrent terminate cannot slip between the status check and the insert.
    const agent = await lockAgent(tx, agentId);
    if (KEYLESS_STATUSES.has(agent.status)) throw conflict(`cannot create a key for a ${agent.status} agent`);
    const token = newToken(AGENT_KEY_PREFIX);
    const key = oneRow(
      await tx
        .insert(agentApiKeys)
        .values({ companyId: agent.companyId, agentId, name, keyHash: hashToken(token) })
        .returning(),
      'agent key',
    );
    await recordActivity(tx, ctx.actor, {
      companyId: agent.companyId,
      action: 'agent.key_created',
      entityType: 'agent',
      entityId: agentId,
      details: { keyId: key.id, name },
    });
    return { key, token };
  });
}

/** Marks the key revoked (idempotent: revoking twice keeps the first revokedAt). */
export async function revokeKey(ctx: Ctx, agentRef: string, keyId: string): Promise<AgentKey> {
  const { id: agentId } = await agentFor(ctx, 'agent.revokeKey', agentRef);
  return ctx.db.transaction(async (tx) => {
    const [key] = await tx
      .select()
      .from(agentApiKeys)
      .where(and(eq(agentApiKeys.id, keyId), eq(agentApiKeys.agentId, agentId)));
    if (!key) throw notFound('key');
    const [revoked] = await tx
      .update(agentApiKeys)
      .set({ revokedAt: sql`coalesce(${agentApiKeys.revokedAt}, now())` })
      .where(eq(agentApiKeys.id, keyId))
      .returning();
    if (!revoked) throw notFound('key'); // deleted since it was read
    await recordActivity(tx, ctx.actor, {
      companyId: key.companyId,
      action: 'agent.key_revoked',
      entityType: 'agent',
      entityId: agentId,
      details: { keyId, name: key.name },
    });
    return revoked;
  });
}

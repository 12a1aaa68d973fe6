// Agent use cases: create, update, permissions, budget. Each mutation is one transaction that also
// writes its activity entry.
import { slugify } from '../../lib/ids.ts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { agents } from '../../db/schema/index.ts';
import { conflict, notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { monthlyBudgetOf, syncMonthlyBudgetPolicy } from '../budgets/budget-policies.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { assertSecretRefsInCompany, normalizeSecretRefs } from '../secrets/refs.ts';
import { managerChainIds } from './lookup.ts';
import { type Agent, oneRow } from '../../db/rows.ts';
import { findAgentById, lockAgent } from '../../core/agent-access.ts';
import { redactConfig } from './present.ts';
import type { CreateAgent, PatchAgent, PermissionsPatch } from './schemas.ts';
import { stopAgent } from '../runs/lifecycle.ts';
import { setAgentSkills } from '../skills/agent-skills.ts';
import { agentFor, agentForUpdate, companyForNewAgent, selfActor } from './policy.ts';

// Path words under /api/agents/ that a shortname must never shadow.
const RESERVED_KEYS = new Set(['me']);
// How many "Name N" suffixes create tries before giving up with 409.
const MAX_NAME_SUFFIX = 1000;

/**
 * Serialises name/urlKey choice and org-tree edits within one company, so two concurrent creates
 * never pick the same suffix and two concurrent reportsTo changes never close a cycle together.
 */
export async function lockCompanyAgents(tx: Tx, companyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('boardroom.agents'), hashtext(${companyId}))`);
}

/** "Scout", then "Scout 2", "Scout 3", ...: the first name whose name and shortname are free among live agents. */
async function dedupName(tx: DbOrTx, companyId: string, base: string): Promise<{ name: string; urlKey: string }> {
  const baseSlug = slugify(base, 'agent');
  const live = await tx
    .select({ name: agents.name, urlKey: agents.urlKey })
    .from(agents)
    .where(
      and(
        eq(agents.companyId, companyId),
        ne(agents.status, 'terminated'),
        sql`(starts_with(lower(${agents.name}), lower(${base})) or starts_with(${agents.urlKey}, ${baseSlug}))`,
      ),
    );
  const names = new Set(live.map((a) => a.name.toLowerCase()));
  const keys = new Set([...live.map((a) => a.urlKey), ...RESERVED_KEYS]);
  for (let n = 1; n <= MAX_NAME_SUFFIX; n++) {
    const name = n === 1 ? base : `${base} ${n}`;
    const urlKey = slugify(name, 'agent');
    if (!names.has(name.toLowerCase()) && !keys.has(urlKey)) return { name, urlKey };
  }
  throw conflict('too many agents share this name');
}

/** reportsTo must be a live agent of the same company, and (for an existing agent) never a descendant of it. */
async function assertManager(tx: DbOrTx, companyId: string, managerId: string, agentId?: string): Promise<void> {
  if (managerId === agentId) throw unprocessable('an agent cannot report to itself');
  const [manager] = await tx
    .select({ companyId: agents.companyId, status: agents.status })
    .from(agents)
    .where(eq(agents.id, managerId));
  if (!manager || manager.companyId !== companyId)
    throw unprocessable('reportsTo must be an agent of the same company');
  if (manager.status === 'terminated') throw unprocessable('reportsTo must not be a terminated agent');
  if (agentId && (await managerChainIds(tx, managerId)).includes(agentId))
    throw unprocessable('reportsTo would create a cycle in the org tree');
}

/** Secret references must name secrets of the agent's company; omitted versions become 'latest'. */
async function checkedConfig(
  tx: DbOrTx,
  companyId: string,
  config: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  await assertSecretRefsInCompany(tx, companyId, config);
  return normalizeSecretRefs(config);
}

function withHeartbeatDefault(runtimeConfig: Record<string, unknown> | undefined): Record<string, unknown> {
  const rc = runtimeConfig ?? {};
  const heartbeat = (rc.heartbeat ?? {}) as Record<string, unknown>;
  return { ...rc, heartbeat: { ...heartbeat, enabled: heartbeat.enabled ?? false } };
}

/** Activity-safe view of an agent's settings. */
export function agentSnapshot(agent: Agent, budgetMonthlyCents: number) {
  return {
    name: agent.name,
    role: agent.role,
    title: agent.title,
    reportsTo: agent.reportsTo,
    adapterType: agent.adapterType,
    adapterConfig: redactConfig(agent.adapterConfig),
    budgetMonthlyCents,
  };
}

/** POST /agents: the board creates an idle agent (agents hire through hireAgent). */
export async function createAgent(ctx: Ctx, companyId: string, input: CreateAgent): Promise<Agent> {
  const company = await companyForNewAgent(ctx, companyId);
  return insertAgent(ctx, company.id, input, 'idle');
}

/**
 * Creates an agent with its activity entry, in a transaction of its own or as part of the caller's
 * (a hire creates its pending_approval draft this way). A positive budget creates the agent's
 * monthly budget policy right away, except for a pending hire: its approval does that. No check of
 * its own: createAgent and hireAgent, the use cases, check before they call it.
 */
export async function insertAgent(
  ctx: Ctx,
  companyId: string,
  input: CreateAgent,
  status: 'idle' | 'pending_approval',
): Promise<Agent> {
  return inTransaction(ctx, async (tx, inner) => {
    const { actor } = inner;
    await lockCompanyAgents(tx, companyId);
    if (input.reportsTo) await assertManager(tx, companyId, input.reportsTo);
    const adapterConfig = await checkedConfig(tx, companyId, input.adapterConfig ?? {});
    const { name, urlKey } = await dedupName(tx, companyId, input.name);
    const inserted = oneRow(
      await tx
        .insert(agents)
        .values({
          companyId,
          name,
          urlKey,
          role: input.role ?? 'general',
          title: input.title ?? null,
          capabilities: input.capabilities ?? null,
          reportsTo: input.reportsTo ?? null,
          adapterType: input.adapterType,
          adapterConfig,
          runtimeConfig: withHeartbeatDefault(input.runtimeConfig),
          status,
          permissions: { canCreateAgents: input.permissions?.canCreateAgents === true },
          metadata: input.metadata ?? {},
        })
        .returning(),
      'agent',
    );
    // The skills as sync sets them (same references, same 422), attached before the created entry so it shows them.
    const agent = input.desiredSkills ? (await setAgentSkills(inner, inserted, input.desiredSkills)).agent : inserted;
    // A pending hire gets its policy now too: it cannot run before approval, and the budget then applies as proposed.
    if (input.budgetMonthlyCents)
      await syncMonthlyBudgetPolicy(tx, actor, {
        companyId,
        scopeType: 'agent',
        scopeId: agent.id,
        amountCents: input.budgetMonthlyCents,
      });
    await recordActivity(tx, actor, {
      companyId,
      action: 'agent.created',
      entityType: 'agent',
      entityId: agent.id,
      details: { ...agentSnapshot(agent, input.budgetMonthlyCents ?? 0), status },
    });
    return agent;
  });
}

// Keys an adapterConfig replacement keeps unless the replacement sets them: the skill selection and
// instruction-bundle settings belong to the agent, not to one adapter configuration.
const PRESERVED_ON_REPLACE = (key: string) => key === 'serviceSkillSync' || key.startsWith('instructions');

function nextAdapterConfig(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
  replace: boolean,
): Record<string, unknown> {
  if (!replace) return { ...current, ...patch };
  const kept = Object.fromEntries(Object.entries(current).filter(([k]) => PRESERVED_ON_REPLACE(k)));
  return { ...kept, ...patch };
}

/** PATCH rules (SPEC Agents rule 2). `permissions` is refused with 422: it has its own route. */
export async function updateAgent(ctx: Ctx, agentRef: string, patch: PatchAgent): Promise<Agent> {
  const { id: agentId } = await agentForUpdate(ctx, agentRef, Object.keys(patch));
  if (patch.permissions !== undefined)
    throw unprocessable('permissions are changed with PATCH /api/agents/{agentId}/permissions');
  return ctx.db.transaction(async (tx) => {
    // Company lock before the row lock, the same order createAgent takes them in.
    const [found] = await tx.select({ companyId: agents.companyId }).from(agents).where(eq(agents.id, agentId));
    if (!found) throw notFound('agent');
    const companyId = found.companyId;
    await lockCompanyAgents(tx, companyId);
    const current = await lockAgent(tx, agentId);
    // Everything but the status, which only core/agent-status.ts writes.
    const changes: Omit<Partial<typeof agents.$inferInsert>, 'status'> = {};
    // Refused (409, 422) before anything else changes; a pause stops the agent's work like POST pause.
    const statusChanges: Partial<Agent> = {};
    if (patch.status !== undefined) {
      const { before, agent } = await stopAgent(tx, ctx.actor, agentId, { kind: 'set', status: patch.status });
      statusChanges.status = agent.status;
      if (patch.status !== 'paused' || before.status !== 'paused') statusChanges.pauseReason = agent.pauseReason;
    }
    if (patch.name !== undefined && patch.name !== current.name) {
      const urlKey = slugify(patch.name, 'agent');
      const [taken] = await tx
        .select({ id: agents.id })
        .from(agents)
        .where(
          and(
            eq(agents.companyId, companyId),
            eq(agents.urlKey, urlKey),
            ne(agents.status, 'terminated'),
            ne(agents.id, agentId),
          ),
        );
      if (taken || RESERVED_KEYS.has(urlKey))
        throw conflict('another agent of this company already uses this shortname', { urlKey });
      Object.assign(changes, { name: patch.name, urlKey });
    }
    if (patch.reportsTo !== undefined) {
      if (patch.reportsTo) await assertManager(tx, companyId, patch.reportsTo, agentId);
      changes.reportsTo = patch.reportsTo;
    }
    if (patch.adapterConfig !== undefined || patch.replaceAdapterConfig) {
      const next = nextAdapterConfig(
        current.adapterConfig,
        patch.adapterConfig ?? {},
        patch.replaceAdapterConfig === true,
      );
      changes.adapterConfig = await checkedConfig(tx, companyId, next);
    }
    if (patch.runtimeConfig !== undefined) {
      const heartbeat = {
        ...(current.runtimeConfig.heartbeat as object | undefined),
        ...(patch.runtimeConfig.heartbeat as object | undefined),
      };
      changes.runtimeConfig = { ...current.runtimeConfig, ...patch.runtimeConfig, heartbeat };
    }
    for (const field of ['role', 'title', 'capabilities', 'adapterType', 'metadata'] as const) {
      if (patch[field] !== undefined) Object.assign(changes, { [field]: patch[field] });
    }
    const updated = oneRow(
      await tx
        .update(agents)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(agents.id, agentId))
        .returning(),
      'locked agent',
    );
    const details: Record<string, unknown> = { ...statusChanges, ...changes };
    if (changes.adapterConfig) details.adapterConfig = redactConfig(changes.adapterConfig);
    if (changes.runtimeConfig) details.runtimeConfig = redactConfig(changes.runtimeConfig);
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'agent.updated',
      entityType: 'agent',
      entityId: agentId,
      details: { changes: details },
    });
    return updated;
  });
}

export async function updatePermissions(ctx: Ctx, agentRef: string, patch: PermissionsPatch): Promise<Agent> {
  const { id: agentId } = await agentFor(ctx, 'agent.setPermissions', agentRef);
  return ctx.db.transaction(async (tx) => {
    const current = await lockAgent(tx, agentId);
    const updated = oneRow(
      await tx
        .update(agents)
        .set({
          ...(patch.canCreateAgents !== undefined && {
            permissions: { ...current.permissions, canCreateAgents: patch.canCreateAgents },
          }),
          ...(patch.canAssignTasks !== undefined && { canAssignTasks: patch.canAssignTasks }),
          updatedAt: sql`now()`,
        })
        .where(eq(agents.id, agentId))
        .returning(),
      'locked agent',
    );
    await recordActivity(tx, ctx.actor, {
      companyId: current.companyId,
      action: 'agent.permissions_updated',
      entityType: 'agent',
      entityId: agentId,
      details: { ...patch },
    });
    return updated;
  });
}

/** Sets the monthly budget: the agent's calendar-month billed_cents policy (0 switches it off), evaluated at once. */
export async function updateBudget(ctx: Ctx, agentRef: string, budgetMonthlyCents: number): Promise<Agent> {
  const { id: agentId } = await agentFor(ctx, 'agent.setBudget', agentRef);
  return ctx.db.transaction(async (tx) => {
    const current = await lockAgent(tx, agentId);
    const before = await monthlyBudgetOf(tx, 'agent', agentId);
    await syncMonthlyBudgetPolicy(tx, ctx.actor, {
      companyId: current.companyId,
      scopeType: 'agent',
      scopeId: agentId,
      amountCents: budgetMonthlyCents,
    });
    await recordActivity(tx, ctx.actor, {
      companyId: current.companyId,
      action: 'agent.budget_updated',
      entityType: 'agent',
      entityId: agentId,
      details: { from: before.budgetMonthlyCents, to: budgetMonthlyCents },
    });
    return current;
  });
}

/** GET /agents/me: the calling agent's own row (agent callers only). */
export async function selfAgent(ctx: Ctx): Promise<Agent> {
  const actor = await selfActor(ctx);
  const me = await findAgentById(ctx.db, actor.agentId);
  if (!me) throw notFound('agent');
  return me;
}

// An agent's skills (SPEC "Agent skill snapshot", Agents rule 5): the attachments in agent_skills
// are the one record of what an agent wants (adapterConfig.serviceSkillSync.desiredSkills mirrors
// their keys, written with them); sync and agent create replace them with exactly the list sent,
// plus every bundled skill marked required.
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents, agentSkills, companySkills } from '../../db/schema/index.ts';
import { lockAgent } from '../../core/agent-access.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import { recordActivity } from '../activity/record.ts';
import type { Agent } from '../../db/rows.ts';
import { ensureBundled, type Skill } from './service.ts';
import { assertMaySyncAgentSkills } from './policy.ts';

/**
 * Adapters that receive the skills: claude_local gets a directory of them before each run
 * (adapterConfig.skillsDir), codex_local a CODEX_HOME with them under skills/; both rebuilt every
 * run, hence ephemeral. Others keep the stored selection.
 */
const SKILL_MODES: Record<string, 'persistent' | 'ephemeral'> = { claude_local: 'ephemeral', codex_local: 'ephemeral' };

export interface SkillSnapshot {
  adapterType: string;
  supported: boolean;
  mode: 'persistent' | 'ephemeral' | 'unsupported';
  desiredSkills: string[];
  entries: {
    key: string;
    runtimeName: string;
    desired: boolean;
    managed: boolean;
    required: boolean;
    state: string;
    origin: string;
    skillId: string;
  }[];
  warnings: string[];
}

/** The skills attached to an agent, by name. */
export async function attachedSkills(db: DbOrTx, agentId: string): Promise<Skill[]> {
  const rows = await db
    .select({ skill: companySkills })
    .from(agentSkills)
    .innerJoin(companySkills, eq(companySkills.id, agentSkills.skillId))
    .where(eq(agentSkills.agentId, agentId))
    .orderBy(asc(companySkills.slug), asc(companySkills.key));
  return rows.map((r) => r.skill);
}

export async function skillSnapshot(db: DbOrTx, agent: Agent): Promise<SkillSnapshot> {
  const skills = await attachedSkills(db, agent.id);
  const mode = SKILL_MODES[agent.adapterType] ?? 'unsupported';
  const supported = mode !== 'unsupported';
  return {
    adapterType: agent.adapterType,
    supported,
    mode,
    desiredSkills: skills.map((s) => s.key),
    entries: skills.map((s) => ({
      key: s.key,
      skillId: s.id,
      runtimeName: s.slug,
      desired: true,
      managed: true,
      required: s.required && s.sourceKind === 'service_bundled',
      state: supported ? 'configured' : 'stored',
      origin: s.sourceKind,
    })),
    warnings: supported
      ? []
      : [`adapter ${agent.adapterType} has no skill listing: the selection is stored and not handed to the runtime`],
  };
}

/**
 * Resolves each reference (a skill id, a canonical key, or a slug unique in the company) and makes
 * the agent's attachments exactly those plus the required bundled skills; their keys also become
 * `adapterConfig.serviceSkillSync.desiredSkills` (SPEC: a persisted agent keeps its selection
 * there). Any unknown or ambiguous reference fails the whole call (422), listing them all, and
 * changes nothing. Sync runs it in a transaction of its own; agent create inside the create's, so a
 * refused reference leaves no agent behind. Returns the agent as updated.
 */
export async function setAgentSkills(
  ctx: Ctx,
  agent: Pick<Agent, 'id' | 'companyId'>,
  references: string[],
): Promise<{ agent: Agent; keys: string[] }> {
  await ensureBundled(ctx.db, agent.companyId);
  return inTransaction(ctx, async (tx) => {
    // The agent first (the lock order, runs/lock-order.ts): two syncs of one agent run one after the
    // other, so the second replaces the first's attachments instead of colliding with them (23505).
    await lockAgent(tx, agent.id);
    const refs = [...new Set(references.map((r) => r.trim()))];
    const ids = refs.filter(isUuid);
    const candidates =
      refs.length === 0
        ? []
        : await tx
            .select()
            .from(companySkills)
            .where(
              and(
                eq(companySkills.companyId, agent.companyId),
                or(
                  inArray(companySkills.key, refs),
                  inArray(companySkills.slug, refs),
                  ...(ids.length ? [inArray(companySkills.id, ids)] : []),
                ),
              ),
            );
    const chosen = new Map<string, Skill>();
    const unknown: string[] = [];
    const ambiguous: { reference: string; keys: string[] }[] = [];
    for (const ref of refs) {
      const exact = candidates.find((s) => s.id === ref || s.key === ref);
      const bySlug = candidates.filter((s) => s.slug === ref);
      const [onlyBySlug] = bySlug;
      if (exact) chosen.set(exact.id, exact);
      else if (onlyBySlug && bySlug.length === 1) chosen.set(onlyBySlug.id, onlyBySlug);
      else if (bySlug.length > 1) ambiguous.push({ reference: ref, keys: bySlug.map((s) => s.key) });
      else unknown.push(ref);
    }
    if (unknown.length || ambiguous.length)
      throw unprocessable('unknown or ambiguous skill references', { unknown, ambiguous });
    const required = await tx
      .select()
      .from(companySkills)
      .where(
        and(
          eq(companySkills.companyId, agent.companyId),
          eq(companySkills.sourceKind, 'service_bundled'),
          eq(companySkills.required, true),
        ),
      );
    for (const s of required) chosen.set(s.id, s);
    await tx.delete(agentSkills).where(eq(agentSkills.agentId, agent.id));
    if (chosen.size > 0)
      await tx
        .insert(agentSkills)
        .values([...chosen.keys()].map((skillId) => ({ companyId: agent.companyId, agentId: agent.id, skillId })));
    // Read back as the snapshot reads them, so both list the keys in one order.
    const keys = (await attachedSkills(tx, agent.id)).map((s) => s.key);
    // One statement on the stored config, so a concurrent PATCH of other adapterConfig keys is not lost.
    const current = sql`case when jsonb_typeof(${agents.adapterConfig} -> 'serviceSkillSync') = 'object' then ${agents.adapterConfig} -> 'serviceSkillSync' else '{}'::jsonb end`;
    const [updated] = await tx
      .update(agents)
      .set({
        adapterConfig: sql`jsonb_set(${agents.adapterConfig}, '{serviceSkillSync}', ${current} || jsonb_build_object('desiredSkills', ${JSON.stringify(keys)}::jsonb))`,
        updatedAt: sql`now()`,
      })
      .where(eq(agents.id, agent.id))
      .returning();
    if (!updated) throw notFound('agent');
    return { agent: updated, keys };
  });
}

/** POST /api/agents/{agentId}/skills/sync: setAgentSkills with its activity entry, in one transaction. */
export async function syncAgentSkills(ctx: Ctx, agent: Agent, references: string[]): Promise<void> {
  await assertMaySyncAgentSkills(ctx, agent);
  await inTransaction(ctx, async (tx, inner) => {
    const { keys } = await setAgentSkills(inner, agent, references);
    await recordActivity(tx, ctx.actor, {
      companyId: agent.companyId,
      action: 'agent.skills_synced',
      entityType: 'agent',
      entityId: agent.id,
      details: { desiredSkills: [...keys].sort() },
    });
  });
}

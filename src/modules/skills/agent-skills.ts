// An agent's skills (SPEC "Agent skill snapshot", Agents rule 5): the attachments in agent_skills
// are the one record of what an agent wants; sync replaces them with exactly the list sent, plus
// every bundled skill marked required.
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agentSkills, companySkills } from '../../db/schema/index.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { unprocessable } from '../../core/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import { recordActivity } from '../activity/record.ts';
import type { Agent } from '../agents/present.ts';
import { ensureBundled, type Skill } from './service.ts';

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
  entries: { key: string; runtimeName: string; desired: boolean; managed: boolean; required: boolean; state: string; origin: string; skillId: string }[];
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
    warnings: supported ? [] : [`adapter ${agent.adapterType} has no skill listing: the selection is stored and not handed to the runtime`],
  };
}

/**
 * Resolves each reference (a skill id, a canonical key, or a slug unique in the company) and makes
 * the attachments exactly those plus the required bundled skills. Any unknown or ambiguous
 * reference fails the whole request (422), listing them all, and changes nothing.
 */
export async function syncAgentSkills(ctx: Ctx, agent: Agent, references: string[]): Promise<void> {
  await ensureBundled(ctx.db, agent.companyId);
  await inTransaction(ctx, async (tx) => {
    const refs = [...new Set(references.map((r) => r.trim()))];
    const ids = refs.filter(isUuid);
    const candidates = refs.length === 0 ? [] : await tx
      .select()
      .from(companySkills)
      .where(and(eq(companySkills.companyId, agent.companyId), or(inArray(companySkills.key, refs), inArray(companySkills.slug, refs), ...(ids.length ? [inArray(companySkills.id, ids)] : []))));
    const chosen = new Map<string, Skill>();
    const unknown: string[] = [];
    const ambiguous: { reference: string; keys: string[] }[] = [];
    for (const ref of refs) {
      const exact = candidates.find((s) => s.id === ref || s.key === ref);
      const bySlug = candidates.filter((s) => s.slug === ref);
      if (exact) chosen.set(exact.id, exact);
      else if (bySlug.length === 1) chosen.set(bySlug[0]!.id, bySlug[0]!);
      else if (bySlug.length > 1) ambiguous.push({ reference: ref, keys: bySlug.map((s) => s.key) });
      else unknown.push(ref);
    }
    if (unknown.length || ambiguous.length) throw unprocessable('unknown or ambiguous skill references', { unknown, ambiguous });
    const required = await tx
      .select()
      .from(companySkills)
      .where(and(eq(companySkills.companyId, agent.companyId), eq(companySkills.sourceKind, 'service_bundled'), eq(companySkills.required, true)));
    for (const s of required) chosen.set(s.id, s);
    await tx.delete(agentSkills).where(eq(agentSkills.agentId, agent.id));
    if (chosen.size > 0) await tx.insert(agentSkills).values([...chosen.keys()].map((skillId) => ({ companyId: agent.companyId, agentId: agent.id, skillId })));
    await recordActivity(tx, ctx.actor, { companyId: agent.companyId, action: 'agent.skills_synced', entityType: 'agent', entityId: agent.id, details: { desiredSkills: [...chosen.values()].map((s) => s.key).sort() } });
  });
}

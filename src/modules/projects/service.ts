// Project use cases. Each mutation is one transaction that also writes its activity entry.
import { and, asc, count, eq, like, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { projects } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import type { Ctx } from '../../core/context.ts';
import { assertAgentInCompany } from '../../core/agent-access.ts';
import { assertGoalsInCompany } from '../../core/goal-access.ts';
import { assertSecretRefsInCompany, normalizeSecretRefs } from '../secrets/refs.ts';
import { replaceProjectGoals } from '../goals/project-goals.ts';
import { slugify } from '../../lib/ids.ts';
import { type Project, oneRow } from '../../db/rows.ts';
import { presentOneProject } from './present.ts';
import type { CreateProject, PatchProject } from './schemas.ts';
import { insertWorkspace } from './workspaces.ts';
import { assertMayChangeProjects } from './policy.ts';

// Distinct, readable on light and dark backgrounds; assigned in creation order.
export const PROJECT_PALETTE: [string, ...string[]] = [
  '#6366f1',
  '#0ea5e9',
  '#10b981',
  '#f59e0b',
  '#ef4444',
  '#8b5cf6',
  '#ec4899',
  '#14b8a6',
  '#f97316',
  '#84cc16',
];

// Past this many same-named projects the suffix is random (still unique by the index).
const MAX_NAME_SUFFIX = 1000;

export async function listProjects(db: DbOrTx, companyId: string, limit: number): Promise<Project[]> {
  return db
    .select()
    .from(projects)
    .where(eq(projects.companyId, companyId))
    .orderBy(asc(projects.createdAt), asc(projects.id))
    .limit(limit);
}

/** goalIds win; a lone legacy goalId means [goalId] (null clears). Duplicates keep their first place. */
function requestedGoalIds(input: { goalIds?: string[]; goalId?: string | null }): string[] | undefined {
  if (input.goalIds !== undefined) {
    if (input.goalId != null && input.goalIds[0] !== input.goalId)
      throw badRequest('goalId must equal the first of goalIds when both are given');
    return [...new Set(input.goalIds)];
  }
  if (input.goalId !== undefined) return input.goalId ? [input.goalId] : [];
  return undefined;
}

async function prepareEnv(tx: DbOrTx, companyId: string, env: Record<string, unknown> | null | undefined) {
  if (!env) return env;
  await assertSecretRefsInCompany(tx, companyId, env);
  return normalizeSecretRefs(env);
}

/** A name whose shortname is free in the company: "Site", then "Site 2", "Site 3", ... */
async function uniqueName(tx: DbOrTx, companyId: string, name: string): Promise<{ name: string; urlKey: string }> {
  const base = slugify(name, 'project');
  const taken = new Set(
    (
      await tx
        .select({ k: projects.urlKey })
        .from(projects)
        .where(and(eq(projects.companyId, companyId), like(projects.urlKey, `${base}%`)))
    ).map((r) => r.k),
  );
  if (!taken.has(base)) return { name, urlKey: base };
  for (let n = 2; n <= MAX_NAME_SUFFIX; n++) {
    if (!taken.has(`${base}-${n}`)) return { name: `${name} ${n}`, urlKey: `${base}-${n}` };
  }
  const n = Math.floor(Math.random() * 1e9);
  return { name: `${name} ${n}`, urlKey: `${base}-${n}` };
}

async function paletteColor(tx: DbOrTx, companyId: string): Promise<string> {
  const [row] = await tx.select({ n: count() }).from(projects).where(eq(projects.companyId, companyId));
  // Always an index of the palette; the first colour is there for the type.
  return PROJECT_PALETTE[(row?.n ?? 0) % PROJECT_PALETTE.length] ?? PROJECT_PALETTE[0];
}

// Serialises shortname and colour choice per company so concurrent creates of one name get
// distinct suffixes instead of a unique-index conflict.
async function lockProjectNames(tx: Tx, companyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`project-names:${companyId}`}, 0))`);
}

/** Creates the project and, with `workspace`, its first workspace: one transaction, so an invalid workspace leaves nothing. */
export async function createProject(ctx: Ctx, companyId: string, input: CreateProject): Promise<Project> {
  await assertMayChangeProjects(ctx, 'project.create', companyId);
  return ctx.db.transaction(async (tx) => {
    const goalIds = requestedGoalIds(input) ?? [];
    await assertGoalsInCompany(tx, companyId, goalIds, 'goalIds');
    if (input.leadAgentId) await assertAgentInCompany(tx, companyId, input.leadAgentId, 'leadAgentId');
    const env = await prepareEnv(tx, companyId, input.env);
    await lockProjectNames(tx, companyId);
    const { name, urlKey } = await uniqueName(tx, companyId, input.name);
    const project = oneRow(
      await tx
        .insert(projects)
        .values({
          companyId,
          name,
          urlKey,
          description: input.description ?? null,
          status: input.status ?? 'backlog',
          leadAgentId: input.leadAgentId ?? null,
          targetDate: input.targetDate ?? null,
          color: input.color ?? (await paletteColor(tx, companyId)),
          env: env ?? null,
          executionWorkspacePolicy: input.executionWorkspacePolicy ?? null,
        })
        .returning(),
      'project',
    );
    await replaceProjectGoals(tx, companyId, project.id, goalIds);
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'project.created',
      entityType: 'project',
      entityId: project.id,
      details: { name, urlKey, goalIds, envKeys: env ? Object.keys(env) : null },
    });
    if (input.workspace) await insertWorkspace(tx, ctx.actor, project, input.workspace);
    return oneRow(await tx.select().from(projects).where(eq(projects.id, project.id)), 'project just created');
  });
}

export async function updateProject(ctx: Ctx, project: Project, patch: PatchProject): Promise<Project> {
  await assertMayChangeProjects(ctx, 'project.update', project.companyId);
  return ctx.db.transaction(async (tx) => {
    const goalIds = requestedGoalIds(patch);
    if (goalIds) {
      await assertGoalsInCompany(tx, project.companyId, goalIds, 'goalIds');
      await replaceProjectGoals(tx, project.companyId, project.id, goalIds);
    }
    if (patch.leadAgentId) await assertAgentInCompany(tx, project.companyId, patch.leadAgentId, 'leadAgentId');
    const env = patch.env === undefined ? undefined : await prepareEnv(tx, project.companyId, patch.env);
    let urlKey: string | undefined;
    if (patch.name !== undefined) {
      urlKey = slugify(patch.name, 'project');
      const [clash] = await tx
        .select({ id: projects.id })
        .from(projects)
        .where(
          and(eq(projects.companyId, project.companyId), eq(projects.urlKey, urlKey), ne(projects.id, project.id)),
        );
      if (clash)
        throw conflict(`another project of this company already has the shortname "${urlKey}"`, {
          urlKey,
          projectId: clash.id,
        });
    }
    const [updated] = await tx
      .update(projects)
      .set({
        ...(patch.name !== undefined && { name: patch.name, urlKey }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.leadAgentId !== undefined && { leadAgentId: patch.leadAgentId }),
        ...(patch.targetDate !== undefined && { targetDate: patch.targetDate }),
        ...(env !== undefined && { env }),
        ...(patch.executionWorkspacePolicy !== undefined && {
          executionWorkspacePolicy: patch.executionWorkspacePolicy,
        }),
        // color is never empty: null asks for a palette colour again.
        ...(patch.color !== undefined && { color: patch.color ?? (await paletteColor(tx, project.companyId)) }),
        ...(patch.archivedAt !== undefined && {
          archivedAt: patch.archivedAt === null ? null : new Date(patch.archivedAt),
        }),
        updatedAt: sql`now()`,
      })
      .where(eq(projects.id, project.id))
      .returning();
    if (!updated) throw notFound('project'); // deleted since it was read
    const archiving = patch.archivedAt != null && project.archivedAt === null;
    // Plain env values may be credentials under innocent names: the audit trail names the keys only.
    const { env: _env, ...changes } = patch;
    const details = { changes, ...(env !== undefined && { envKeys: env ? Object.keys(env) : null }) };
    await recordActivity(tx, ctx.actor, {
      companyId: project.companyId,
      action: archiving ? 'project.archived' : 'project.updated',
      entityType: 'project',
      entityId: project.id,
      details,
    });
    return updated;
  });
}

/** Deletes the project (its workspaces and goal links cascade) and returns it as it was. */
export async function deleteProject(ctx: Ctx, project: Project) {
  await assertMayChangeProjects(ctx, 'project.delete', project.companyId);
  return ctx.db.transaction(async (tx) => {
    const presented = await presentOneProject(tx, project);
    await tx.delete(projects).where(eq(projects.id, project.id));
    await recordActivity(tx, ctx.actor, {
      companyId: project.companyId,
      action: 'project.deleted',
      entityType: 'project',
      entityId: project.id,
      details: { name: project.name, urlKey: project.urlKey },
    });
    return presented;
  });
}

// Import, the apply: the plan made again inside ONE transaction (the target company locked) and
// carried out there, so a failure anywhere leaves nothing behind, not even a new company.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  agents,
  agentSkills,
  assets,
  companies,
  companySkillFiles,
  companySkills,
  goals,
  issueAttachments,
  issueDocumentRevisions,
  issueDocuments,
  issues,
  projectGoals,
  projects,
  projectWorkspaces,
  routines,
  routineTriggers,
  secrets,
  secretVersions,
} from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { unprocessable } from '../../core/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { recordActivity } from '../activity/record.ts';
import { prepareLogo, storeAsset, type UploadedFile } from '../assets/service.ts';
import { syncMonthlyBudgetPolicy } from '../budgets/budget-policies.ts';
import { createCompany } from '../companies/service.ts';
import { DEFAULT_REPLAY_WINDOW_SEC, newPublicId, newWebhookSecret, sealWebhookSecret } from '../routines/signing.ts';
import { sealSecret } from '../secrets/crypto.ts';
import { DEFAULT_SECRET_PROVIDER } from '../secrets/providers.ts';
import { buildPackage } from '../skills/package.ts';
import { ensureBundled } from '../skills/service.ts';
import { fileBytes, type CompanyModel } from './bundle.ts';
import { importEnv } from './env.ts';
import {
  planImport,
  renamed,
  routineVariables,
  skillFilesOf,
  skillKeyIn,
  type Existing,
  type ImportOptions,
  type ImportPlan,
  type PlanAction,
  type PlanEntry,
} from './plan.ts';
import { oneRow } from '../../db/rows.ts';
import { entryOf } from '../../lib/maps.ts';

export interface ApplyResult {
  company: { id: string; name: string; action: 'created' | 'updated' | 'unchanged' };
  agents: { slug: string; id: string | null; action: PlanAction }[];
  projects: { slug: string; id: string | null; action: PlanAction }[];
  goals: { slug: string; id: string | null; action: PlanAction }[];
  issues: { slug: string; id: string | null; action: PlanAction }[];
  routines: { slug: string; id: string | null; action: PlanAction }[];
  skills: { slug: string; id: string | null; action: PlanAction }[];
  warnings: string[];
}

export interface ApplyDeps {
  storage: Storage;
  masterKey: Buffer;
}

/** A parsed bundle, how to import it, and the warnings its parse gave. */
export interface ImportRequest {
  model: CompanyModel;
  opts: ImportOptions;
  parseWarnings?: string[];
}

/**
 * Plans again and applies, all in one transaction. 422 while the plan has errors. Agents and
 * routines arrive paused (replaced ones too): an import never starts spending on its own.
 */
export async function applyImport(
  db: Db,
  actor: Actor,
  deps: ApplyDeps,
  { model, opts, parseWarnings = [] }: ImportRequest,
): Promise<ApplyResult> {
  // The logo is checked (and an SVG sanitised) before the transaction: it may throw 415/400.
  const logo = model.logo
    ? await prepareLogo({
        bytes: fileBytes({ encoding: 'base64', data: model.logo.data }),
        contentType: model.logo.contentType,
        filename: 'logo',
      })
    : null;
  return db.transaction(async (tx) => {
    if (opts.target.mode === 'existing_company')
      await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.id, opts.target.companyId))
        .for('update');
    const { plan, warnings, errors, existing } = await planImport(tx, model, opts, parseWarnings);
    if (errors.length > 0)
      throw unprocessable(`the import plan has ${errors.length} error(s): ${errors.slice(0, 3).join('; ')}`, {
        errors,
      });
    return carryOut({ tx, actor, deps, model, opts, plan, warnings, existing, logo });
  });
}

/** An import planned inside the apply's transaction, ready to be carried out there. */
interface PlannedImport {
  tx: Tx;
  actor: Actor;
  deps: ApplyDeps;
  model: CompanyModel;
  opts: ImportOptions;
  plan: ImportPlan;
  warnings: string[];
  existing: Existing;
  /** The bundle's logo, checked (an SVG sanitised) before the transaction. */
  logo: UploadedFile | null;
}

/** What every step of an apply reads, and the ids by bundle slug the steps fill in. */
interface ApplyRun extends PlannedImport {
  companyId: string;
  /** Input key to the secret its envs reference. */
  secretIds: Map<string, string>;
  /** A skill key of the bundle to its key in this company. */
  skillKeys: Map<string, string>;
  ids: Record<'agents' | 'projects' | 'goals' | 'issues' | 'routines' | 'skills', Map<string, string>>;
}

const idOf = (map: Map<string, string>, slug: string | null) => (slug ? (map.get(slug) ?? null) : null);
const createdBy = (actor: Actor) => ({
  createdByUserId: actor.kind === 'board' ? actor.userId : null,
  createdByAgentId: actor.kind === 'agent' ? actor.agentId : null,
});

async function carryOut(planned: PlannedImport): Promise<ApplyResult> {
  const { tx, actor, opts, plan, warnings, existing } = planned;
  const { companyId, companyAction } = await applyCompany(planned);
  // Bundled skills exist in a company once listed: the agents' references to them must resolve now.
  await ensureBundled(tx, companyId);
  // Ids by bundle slug: created, updated or (skip) the existing record references resolve to.
  const ids = {
    agents: new Map([...existing.agents].map(([slug, hit]) => [slug, hit.id])),
    projects: new Map<string, string>(),
    goals: new Map<string, string>(),
    issues: new Map<string, string>(),
    routines: new Map<string, string>(),
    skills: new Map<string, string>(),
  };
  const run: ApplyRun = {
    ...planned,
    companyId,
    secretIds: new Map(existing.secrets),
    skillKeys: new Map(),
    ids,
  };
  await createSecrets(run);
  await applySkills(run);
  await applyAgents(run);
  await applyGoals(run);
  await applyProjects(run);
  await applyTasks(run);
  await applyRoutines(run);
  const result = (entries: PlanEntry[], map: Map<string, string>) =>
    entries.map((e) => ({ slug: e.slug, id: map.get(e.slug) ?? e.existingId, action: e.action }));
  const { secretIds } = run;
  const out: ApplyResult = {
    company: { id: companyId, name: plan.companyName, action: companyAction },
    agents: result(plan.agentPlans, ids.agents),
    projects: result(plan.projectPlans, ids.projects),
    goals: result(plan.goalPlans, ids.goals),
    issues: result(plan.issuePlans, ids.issues),
    routines: result(plan.routinePlans, ids.routines),
    skills: result(plan.skillPlans, ids.skills),
    warnings,
  };
  const count = (entries: PlanEntry[]) => ({
    created: entries.filter((e) => e.action === 'create').length,
    updated: entries.filter((e) => e.action === 'update').length,
    skipped: entries.filter((e) => e.action === 'skip').length,
  });
  await recordActivity(tx, actor, {
    companyId,
    action: 'company.imported',
    entityType: 'company',
    entityId: companyId,
    details: {
      collisionStrategy: opts.collisionStrategy,
      companyAction,
      agents: count(plan.agentPlans),
      projects: count(plan.projectPlans),
      goals: count(plan.goalPlans),
      issues: count(plan.issuePlans),
      routines: count(plan.routinePlans),
      skills: count(plan.skillPlans),
      secretsCreated: [...secretIds.keys()].filter((k) => !existing.secrets.has(k)).length,
    },
  });
  return out;
}

async function applyCompany({
  tx,
  actor,
  deps,
  model,
  opts,
  plan,
  logo,
}: PlannedImport): Promise<{ companyId: string; companyAction: ApplyResult['company']['action'] }> {
  const ctx = { db: tx, actor };
  let companyId: string;
  let companyAction: ApplyResult['company']['action'];
  const c = model.company;
  if (opts.target.mode === 'new_company') {
    const created = await createCompany(ctx, {
      name: plan.companyName,
      description: c?.description ?? null,
      brandColor: c?.brandColor ?? null,
      budgetMonthlyCents: c?.budgetMonthlyCents ?? 0,
      requireBoardApprovalForNewAgents: c?.requireBoardApprovalForNewAgents ?? false,
    });
    companyId = created.id;
    companyAction = 'created';
  } else {
    companyId = opts.target.companyId;
    companyAction = 'unchanged';
    if (plan.companyAction === 'update' && c) {
      await tx
        .update(companies)
        .set({ description: c.description, brandColor: c.brandColor, updatedAt: sql`now()` })
        .where(eq(companies.id, companyId));
      await syncMonthlyBudgetPolicy(tx, actor, {
        companyId,
        scopeType: 'company',
        scopeId: companyId,
        amountCents: c.budgetMonthlyCents,
      });
      companyAction = 'updated';
    }
  }
  if (logo && companyAction !== 'unchanged') {
    const asset = await storeAsset(tx, deps.storage, actor, { companyId, kind: 'logo', file: logo });
    await tx.update(companies).set({ logoAssetId: asset.id }).where(eq(companies.id, companyId));
  }
  return { companyId, companyAction };
}

/** Supplied input values become company secrets, referenced at `latest`. */
async function createSecrets(run: ApplyRun): Promise<void> {
  const { tx, actor, deps, model, opts, companyId, secretIds } = run;
  // Secrets: supplied input values become company secrets, referenced at `latest`.
  for (const input of model.envInputs) {
    const value = opts.secretValues?.[input.key];
    if (secretIds.has(input.key) || typeof value !== 'string') continue;
    const id = randomUUID();
    await tx.insert(secrets).values({
      id,
      companyId,
      name: input.key,
      provider: DEFAULT_SECRET_PROVIDER,
      latestVersion: 1,
      description: `imported input (${input.usedBy.map((u) => u.path).join(', ')})`,
      ...createdBy(actor),
    });
    await tx.insert(secretVersions).values({
      companyId,
      secretId: id,
      version: 1,
      ...sealSecret(deps.masterKey, { companyId, secretId: id, version: 1 }, value),
    });
    secretIds.set(input.key, id);
  }
}

/** Each record of the bundle with its plan entry: the plan holds one per record, in the same order. */
function planned<T>(records: T[], entries: PlanEntry[]): [T, PlanEntry][] {
  const pairs: [T, PlanEntry][] = [];
  for (const [i, record] of records.entries()) {
    const entry = entries[i];
    if (!entry) throw new Error(`the import plan has ${entries.length} entries for ${records.length} records`);
    pairs.push([record, entry]);
  }
  return pairs;
}

/** Skills first: agents attach to them. */
async function applySkills(run: ApplyRun): Promise<void> {
  const { tx, model, plan, companyId, skillKeys, ids } = run;
  // Skills first: agents attach to them. A company-managed key names its company: rewritten to this one.
  for (const [s, entry] of planned(model.skills, plan.skillPlans)) {
    if (entry.action === 'skip') {
      skillKeys.set(s.key, skillKeyIn(s.key, companyId));
      continue;
    }
    const pkg = buildPackage(skillFilesOf(s.files), s.slug);
    // The plan's key: the bundle's (in this company's form), or its new one when renamed.
    const key = entry.action === 'create' && entry.existingId ? entry.plannedName : skillKeyIn(s.key, companyId);
    const values = {
      companyId,
      key,
      slug: pkg.slug,
      name: pkg.name,
      description: pkg.description,
      required: pkg.required,
      sourceKind: s.sourceKind === 'service_bundled' ? 'managed_local' : s.sourceKind,
      sourceLocator: null,
      trustLevel: pkg.trustLevel,
      metadata: pkg.metadata,
      contentHash: pkg.contentHash,
    };
    let skillId: string;
    if (entry.action === 'update') {
      skillId = entry.existingId;
      await tx
        .update(companySkills)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(companySkills.id, skillId));
      await tx.delete(companySkillFiles).where(eq(companySkillFiles.skillId, skillId));
    } else {
      skillId = oneRow(await tx.insert(companySkills).values(values).returning({ id: companySkills.id }), 'skill').id;
    }
    if (pkg.files.length > 0)
      await tx.insert(companySkillFiles).values(
        pkg.files.map((f) => ({
          skillId,
          companyId,
          path: f.path,
          kind: f.kind,
          encoding: f.encoding,
          content: f.content,
          size: f.size,
        })),
      );
    ids.skills.set(s.slug, skillId);
    skillKeys.set(s.key, key);
  }
}

/** Agents, with their budgets and skills; managers linked once all exist. */
async function applyAgents(run: ApplyRun): Promise<void> {
  const { tx, actor, model, opts, plan, warnings, existing, companyId, secretIds, skillKeys, ids } = run;
  // Agents: inserted without managers first, then linked (a manager may come later in the bundle).
  const agentTaken = new Set(existing.agents.keys());
  for (const a of model.agents) agentTaken.add(a.slug);
  for (const [a, entry] of planned(model.agents, plan.agentPlans)) {
    if (entry.action === 'skip') continue;
    const override = opts.adapterOverrides?.[a.slug];
    const { env, ...config } = (override?.adapterConfig ?? a.adapterConfig) as Record<string, unknown> & {
      env?: Record<string, unknown>;
    };
    const resolvedEnv = importEnv(env ?? null, secretIds);
    // The skill selection names skills by key: a company-managed key now names this company.
    const sync = config.serviceSkillSync as { desiredSkills?: unknown } | undefined;
    if (sync && Array.isArray(sync.desiredSkills)) {
      config.serviceSkillSync = {
        ...sync,
        desiredSkills: sync.desiredSkills.map((k) =>
          typeof k === 'string' ? (skillKeys.get(k) ?? skillKeyIn(k, companyId)) : k,
        ),
      };
    }
    const values = {
      companyId,
      name: entry.plannedName,
      role: a.role,
      title: a.title,
      capabilities: a.capabilities,
      adapterType: override?.adapterType ?? a.adapterType,
      adapterConfig: resolvedEnv ? { ...config, env: resolvedEnv } : config,
      runtimeConfig: a.runtimeConfig,
      status: 'paused',
      pauseReason: 'manual',
      permissions: { canCreateAgents: a.permissions.canCreateAgents },
      canAssignTasks: a.permissions.canAssignTasks,
    };
    let id: string;
    if (entry.action === 'update') {
      id = entry.existingId;
      await tx
        .update(agents)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(agents.id, id));
      await tx.delete(agentSkills).where(eq(agentSkills.agentId, id));
    } else {
      const urlKey = entry.existingId ? renamed(a.slug, a.slug, agentTaken).slug : a.slug;
      id = oneRow(
        await tx
          .insert(agents)
          .values({ ...values, urlKey })
          .returning({ id: agents.id }),
        'agent',
      ).id;
    }
    ids.agents.set(a.slug, id);
    await syncMonthlyBudgetPolicy(tx, actor, {
      companyId,
      scopeType: 'agent',
      scopeId: id,
      amountCents: a.budgetMonthlyCents,
    });
    const wanted = a.skills.map((k) => skillKeys.get(k) ?? skillKeyIn(k, companyId));
    const found =
      wanted.length === 0
        ? []
        : await tx
            .select({ id: companySkills.id, key: companySkills.key })
            .from(companySkills)
            .where(and(eq(companySkills.companyId, companyId), inArray(companySkills.key, wanted)));
    const missing = wanted.filter((k) => !found.some((f) => f.key === k));
    if (missing.length > 0)
      warnings.push(`agents/${a.slug}: skills ${missing.join(', ')} are not in this company; not attached`);
    if (found.length > 0)
      await tx.insert(agentSkills).values(found.map((f) => ({ companyId, agentId: id, skillId: f.id })));
  }
  for (const [a, entry] of planned(model.agents, plan.agentPlans)) {
    if (entry.action === 'skip') continue;
    await tx
      .update(agents)
      .set({ reportsTo: a.reportsTo ? (ids.agents.get(a.reportsTo) ?? null) : null })
      .where(eq(agents.id, entryOf(ids.agents, a.slug, 'imported agent')));
  }
}

/** Goals, then their parents. */
async function applyGoals(run: ApplyRun): Promise<void> {
  const { tx, model, plan, companyId, ids } = run;
  // Goals, then parents.
  for (const [g, entry] of planned(model.goals, plan.goalPlans)) {
    if (entry.action === 'skip') {
      ids.goals.set(g.slug, entry.existingId);
      continue;
    }
    const values = {
      companyId,
      title: entry.plannedName,
      description: g.description,
      level: g.level,
      status: g.status,
      ownerAgentId: idOf(ids.agents, g.owner),
    };
    if (entry.action === 'update') {
      await tx
        .update(goals)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(goals.id, entry.existingId));
      ids.goals.set(g.slug, entry.existingId);
    } else {
      ids.goals.set(g.slug, oneRow(await tx.insert(goals).values(values).returning({ id: goals.id }), 'goal').id);
    }
  }
  for (const [g, entry] of planned(model.goals, plan.goalPlans)) {
    if (entry.action === 'skip') continue;
    await tx
      .update(goals)
      .set({ parentId: g.parent ? (ids.goals.get(g.parent) ?? null) : null })
      .where(eq(goals.id, entryOf(ids.goals, g.slug, 'imported goal')));
  }
}

/** Projects with their goals and workspaces. */
async function applyProjects(run: ApplyRun): Promise<void> {
  const { tx, model, plan, warnings, existing, companyId, secretIds, ids } = run;
  // Projects with their goals and workspaces (a replaced project's workspaces are the bundle's).
  const projectTaken = new Set(existing.projects.keys());
  for (const p of model.projects) projectTaken.add(p.slug);
  for (const [p, entry] of planned(model.projects, plan.projectPlans)) {
    if (entry.action === 'skip') {
      ids.projects.set(p.slug, entry.existingId);
      continue;
    }
    const linked = p.goals.map((g) => ids.goals.get(g)).filter((g): g is string => Boolean(g));
    const values = {
      companyId,
      name: entry.plannedName,
      description: p.description,
      status: p.status,
      color: p.color,
      targetDate: p.targetDate,
      leadAgentId: idOf(ids.agents, p.lead),
      goalId: linked[0] ?? null,
      env: importEnv(p.env, secretIds),
    };
    let id: string;
    if (entry.action === 'update') {
      id = entry.existingId;
      await tx
        .update(projects)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(projects.id, id));
      await tx.delete(projectGoals).where(eq(projectGoals.projectId, id));
      await tx.delete(projectWorkspaces).where(eq(projectWorkspaces.projectId, id));
    } else {
      const urlKey = entry.existingId ? renamed(p.slug, p.slug, projectTaken).slug : p.slug;
      id = oneRow(
        await tx
          .insert(projects)
          .values({ ...values, urlKey })
          .returning({ id: projects.id }),
        'project',
      ).id;
    }
    ids.projects.set(p.slug, id);
    if (linked.length > 0)
      await tx
        .insert(projectGoals)
        .values(linked.map((g, position) => ({ companyId, projectId: id, goalId: g, position })));
    // A local workspace whose path was left out at export has nothing to point at: the board adds it again.
    const usable = p.workspaces.filter((w) => w.cwd || w.repoUrl);
    if (usable.length < p.workspaces.length)
      warnings.push(
        `projects/${p.slug}: ${p.workspaces.length - usable.length} workspace(s) without a path or repository were not created`,
      );
    if (usable.length > 0)
      await tx.insert(projectWorkspaces).values(usable.map((w) => ({ ...w, companyId, projectId: id })));
  }
}

/** Tasks (issues) with their documents and attachments, then their parents. */
async function applyTasks(run: ApplyRun): Promise<void> {
  const { tx, actor, deps, model, plan, companyId, ids } = run;
  // Tasks: numbers taken in one counter bump, then parents, documents and attachments.
  const creates = plan.issuePlans.filter((e) => e.action === 'create').length;
  let next = 0;
  let prefix = '';
  if (creates > 0) {
    const bumped = await tx.execute<{ n: number; prefix: string }>(
      sql`update companies set issue_counter = issue_counter + ${creates} where id = ${companyId} returning issue_counter - ${creates} as n, issue_prefix as prefix`,
    );
    const counter = oneRow(bumped.rows, 'company issue counter');
    next = Number(counter.n);
    prefix = counter.prefix;
  }
  const blobs = new Map(model.blobs.map((b) => [b.sha256, b]));
  for (const [t, entry] of planned(model.issues, plan.issuePlans)) {
    if (entry.action === 'skip') {
      ids.issues.set(t.slug, entry.existingId);
      continue;
    }
    const status = t.status === 'in_progress' ? 'todo' : t.status;
    const values = {
      title: entry.plannedName,
      description: t.description,
      status,
      priority: t.priority,
      projectId: idOf(ids.projects, t.project),
      goalId: idOf(ids.goals, t.goal),
      assigneeAgentId: idOf(ids.agents, t.assignee),
      billingCode: t.billingCode,
      completedAt: status === 'done' ? new Date() : null,
      cancelledAt: status === 'cancelled' ? new Date() : null,
    };
    let id: string;
    if (entry.action === 'update') {
      id = entry.existingId;
      await tx
        .update(issues)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(issues.id, id));
    } else {
      const number = next++;
      id = oneRow(
        await tx
          .insert(issues)
          .values({
            ...values,
            companyId,
            number,
            identifier: `${prefix}-${number}`,
            originKind: 'manual',
            ...createdBy(actor),
          })
          .returning({ id: issues.id }),
        'task',
      ).id;
    }
    ids.issues.set(t.slug, id);
    for (const d of t.documents) await putDocument(tx, actor, companyId, id, d);
    const attached =
      entry.action === 'update'
        ? await tx
            .select({ sha256: assets.sha256 })
            .from(issueAttachments)
            .innerJoin(assets, eq(assets.id, issueAttachments.assetId))
            .where(eq(issueAttachments.issueId, id))
        : [];
    for (const a of t.attachments) {
      if (attached.some((x) => x.sha256 === a.sha256)) continue;
      // The plan refused a task whose attachment has no blob in the bundle.
      const b = entryOf(blobs, a.sha256, 'attachment blob');
      const asset = await storeAsset(tx, deps.storage, actor, {
        companyId,
        kind: 'attachment',
        file: {
          bytes: fileBytes({ encoding: 'base64', data: b.data }),
          contentType: a.contentType,
          filename: a.name ?? a.sha256,
        },
      });
      await tx.insert(issueAttachments).values({ companyId, issueId: id, assetId: asset.id });
    }
  }
  for (const [t, entry] of planned(model.issues, plan.issuePlans)) {
    if (entry.action === 'skip' || !t.parent) continue;
    await tx
      .update(issues)
      .set({ parentId: ids.issues.get(t.parent) ?? null })
      .where(eq(issues.id, entryOf(ids.issues, t.slug, 'imported task')));
  }
}

/** Routines, paused, and their triggers. */
async function applyRoutines(run: ApplyRun): Promise<void> {
  const { tx, actor, deps, model, plan, companyId, ids } = run;
  // Routines, paused, with their triggers (a webhook gets a new public id and secret: rotate it to read it).
  for (const [r, entry] of planned(model.routines, plan.routinePlans)) {
    if (entry.action === 'skip') continue;
    const values = {
      companyId,
      title: entry.plannedName,
      description: r.description,
      assigneeAgentId: idOf(ids.agents, r.assignee),
      projectId: idOf(ids.projects, r.project),
      goalId: idOf(ids.goals, r.goal),
      priority: r.priority,
      status: 'paused',
      concurrencyPolicy: r.concurrencyPolicy,
      catchUpPolicy: r.catchUpPolicy,
      variables: routineVariables.parse(r.variables).map((v) => ({
        name: v.name,
        label: v.label ?? null,
        type: v.type,
        required: v.required,
        defaultValue: v.defaultValue ?? null,
      })),
    };
    let id: string;
    if (entry.action === 'update') {
      id = entry.existingId;
      await tx
        .update(routines)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(routines.id, id));
      await tx.delete(routineTriggers).where(eq(routineTriggers.routineId, id));
    } else {
      id = oneRow(
        await tx
          .insert(routines)
          .values({ ...values, ...createdBy(actor) })
          .returning({ id: routines.id }),
        'routine',
      ).id;
    }
    ids.routines.set(r.slug, id);
    for (const t of r.triggers) {
      const triggerId = randomUUID();
      const webhook = t.kind === 'webhook';
      const signingMode = webhook ? (t.signingMode ?? 'bearer') : null;
      await tx.insert(routineTriggers).values({
        id: triggerId,
        companyId,
        routineId: id,
        kind: t.kind,
        label: t.label,
        enabled: true,
        cronExpression: t.kind === 'schedule' ? t.cronExpression : null,
        timezone: t.kind === 'schedule' ? (t.timezone ?? 'UTC') : null,
        // Paused routines do not fire: the scheduler's due scan never sees this trigger until the routine is enabled.
        nextRunAt: null,
        publicId: webhook ? newPublicId() : null,
        signingMode,
        replayWindowSec: webhook ? (t.replayWindowSec ?? DEFAULT_REPLAY_WINDOW_SEC) : null,
        ...(webhook &&
          signingMode !== 'none' &&
          sealWebhookSecret(deps.masterKey, { companyId, id: triggerId, secretVersion: 0 }, newWebhookSecret())),
      });
    }
  }
}

/** A document of a task: created at revision 1, or (replace) given the bundle's body as its next revision. */
async function putDocument(
  tx: Tx,
  actor: Actor,
  companyId: string,
  issueId: string,
  d: CompanyModel['issues'][number]['documents'][number],
): Promise<void> {
  const [current] = await tx
    .select()
    .from(issueDocuments)
    .where(and(eq(issueDocuments.issueId, issueId), eq(issueDocuments.key, d.key)))
    .for('update');
  const documentId = current?.id ?? randomUUID();
  if (!current)
    await tx
      .insert(issueDocuments)
      .values({ id: documentId, companyId, issueId, key: d.key, title: d.title, format: d.format });
  const number = (current?.latestRevisionNumber ?? 0) + 1;
  const revision = oneRow(
    await tx
      .insert(issueDocumentRevisions)
      .values({
        companyId,
        documentId,
        revisionNumber: number,
        title: d.title,
        body: d.body,
        changeSummary: 'imported',
        ...createdBy(actor),
      })
      .returning({ id: issueDocumentRevisions.id }),
    'document revision',
  );
  await tx
    .update(issueDocuments)
    .set({ title: d.title, latestRevisionId: revision.id, latestRevisionNumber: number, updatedAt: sql`now()` })
    .where(eq(issueDocuments.id, documentId));
}

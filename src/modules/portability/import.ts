// Import: a parsed bundle planned against its target (a new company, or an existing one with a
// collision strategy), then applied in ONE transaction: a failure anywhere leaves nothing behind.
// Apply plans again inside that transaction (with the target company locked), so the plan it
// carries out is the one the database holds at that moment, not the preview's.
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
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
import { notFound, unprocessable } from '../../core/errors.ts';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from '../../core/statuses.ts';
import type { Storage } from '../../storage/storage.ts';
import { recordActivity } from '../activity/record.ts';
import { prepareLogo, storeAsset } from '../assets/service.ts';
import { syncMonthlyBudgetPolicy } from '../budgets/budget-policies.ts';
import { createCompany } from '../companies/service.ts';
import { DEFAULT_REPLAY_WINDOW_SEC, newPublicId, newWebhookSecret, sealWebhookSecret } from '../routines/signing.ts';
import { assertValidSchedule } from '../routines/schedule.ts';
import { CATCH_UP_POLICIES, CONCURRENCY_POLICIES, createRoutineBody } from '../routines/schemas.ts';
import { goalLevel, goalStatus } from '../goals/schemas.ts';
import { projectStatus } from '../projects/schemas.ts';
import { sealSecret } from '../secrets/crypto.ts';
import { DEFAULT_SECRET_PROVIDER } from '../secrets/providers.ts';
import { buildPackage, classify } from '../skills/package.ts';
import { ensureBundled } from '../skills/service.ts';
import { fileBytes, importEnv, type CompanyModel, type EnvInput } from './bundle.ts';

export const COLLISION_STRATEGIES = ['rename', 'skip', 'replace'] as const;
export type CollisionStrategy = (typeof COLLISION_STRATEGIES)[number];

export type ImportTarget = { mode: 'new_company'; newCompanyName?: string | undefined } | { mode: 'existing_company'; companyId: string };

export interface ImportOptions {
  target: ImportTarget;
  collisionStrategy: CollisionStrategy;
  nameOverrides?: { company?: string | undefined; agents?: Record<string, string> | undefined; projects?: Record<string, string> | undefined } | undefined;
  secretValues?: Record<string, string> | undefined;
  adapterOverrides?: Record<string, { adapterType: string; adapterConfig?: Record<string, unknown> | undefined }> | undefined;
}

export type PlanAction = 'create' | 'update' | 'skip';
export interface PlanEntry {
  slug: string;
  action: PlanAction;
  plannedName: string;
  existingId: string | null;
  reason: string | null;
}

export interface ImportPlan {
  companyAction: 'create' | 'update' | 'none';
  companyName: string;
  agentPlans: PlanEntry[];
  projectPlans: PlanEntry[];
  goalPlans: PlanEntry[];
  issuePlans: PlanEntry[];
  routinePlans: PlanEntry[];
  skillPlans: PlanEntry[];
}

export interface PlanResult {
  plan: ImportPlan;
  warnings: string[];
  errors: string[];
  envInputs: (EnvInput & { supplied: boolean })[];
}

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

/** What the target already holds, by the keys a bundle collides on. */
interface Existing {
  companyId: string | null;
  agents: Map<string, { id: string; name: string }>;
  projects: Map<string, { id: string; name: string }>;
  goals: Map<string, { id: string; name: string }>;
  issues: Map<string, { id: string; name: string }>;
  routines: Map<string, { id: string; name: string }>;
  skills: Map<string, { id: string; name: string }>;
  secrets: Map<string, string>;
}

const byKey = <T extends { id: string }>(rows: T[], key: (r: T) => string, name: (r: T) => string) => {
  const map = new Map<string, { id: string; name: string }>();
  for (const r of rows) if (!map.has(key(r))) map.set(key(r), { id: r.id, name: name(r) });
  return map;
};

/** Agents, projects and skills of a target read for their keys: far above what a company holds. */
const MAX_TARGET_KEYS = 20_000;

/**
 * The target's records that can collide with the bundle's: agents and projects by shortname, skills
 * by key (all of them, so a new name is free of every one), goals, tasks and routines by title (only
 * the titles the bundle carries: titles need not be unique, so a renamed one cannot collide).
 */
async function loadExisting(db: DbOrTx, companyId: string | null, model: CompanyModel, skillKey: (k: string) => string): Promise<Existing> {
  const empty = new Map<string, { id: string; name: string }>();
  if (!companyId) return { companyId, agents: empty, projects: empty, goals: empty, issues: empty, routines: empty, skills: empty, secrets: new Map() };
  const some = <T>(values: T[]) => (values.length > 0 ? values : null);
  const agentSlugs = some(model.agents.map((a) => a.slug));
  const projectSlugs = some(model.projects.map((p) => p.slug));
  const goalTitles = some(model.goals.map((g) => g.title));
  const issueTitles = some(model.issues.map((i) => i.title));
  const routineTitles = some(model.routines.map((r) => r.title));
  const keys = some(model.skills.map((s) => skillKey(s.key)));
  const inputKeys = some(model.envInputs.map((i) => i.key));
  return {
    companyId,
    // Every shortname and key, not only the bundle's: a renamed record must miss `chief-2` too.
    agents: agentSlugs ? byKey(await db.select({ id: agents.id, urlKey: agents.urlKey, name: agents.name }).from(agents).where(and(eq(agents.companyId, companyId), ne(agents.status, 'terminated'))).limit(MAX_TARGET_KEYS), (r) => r.urlKey, (r) => r.name) : empty,
    projects: projectSlugs ? byKey(await db.select({ id: projects.id, urlKey: projects.urlKey, name: projects.name }).from(projects).where(eq(projects.companyId, companyId)).limit(MAX_TARGET_KEYS), (r) => r.urlKey, (r) => r.name) : empty,
    goals: goalTitles ? byKey(await db.select().from(goals).where(and(eq(goals.companyId, companyId), inArray(goals.title, goalTitles))), (r) => r.title, (r) => r.title) : empty,
    issues: issueTitles
      ? byKey(await db.select({ id: issues.id, title: issues.title }).from(issues).where(and(eq(issues.companyId, companyId), inArray(issues.title, issueTitles), ne(issues.originKind, 'routine_execution'))), (r) => r.title, (r) => r.title)
      : empty,
    routines: routineTitles ? byKey(await db.select().from(routines).where(and(eq(routines.companyId, companyId), ne(routines.status, 'archived'), inArray(routines.title, routineTitles))), (r) => r.title, (r) => r.title) : empty,
    skills: keys ? byKey(await db.select({ id: companySkills.id, key: companySkills.key }).from(companySkills).where(eq(companySkills.companyId, companyId)).limit(MAX_TARGET_KEYS), (r) => r.key, (r) => r.key) : empty,
    secrets: inputKeys ? new Map((await db.select().from(secrets).where(and(eq(secrets.companyId, companyId), inArray(secrets.name, inputKeys)))).map((s) => [s.name, s.id])) : new Map(),
  };
}

/** A company-managed skill key names its company (`company/<id>/<slug>`): in another company it names that one. */
export const skillKeyIn = (key: string, companyId: string) => key.replace(/^company\/[^/]+\//, `company/${companyId}/`);

/** `name 2`, `name 3`...: the first whose slug is free in `taken` (which it joins). */
function renamed(name: string, slug: string, taken: Set<string>): { name: string; slug: string } {
  for (let n = 2; ; n += 1) {
    const candidate = { name: `${name} ${n}`, slug: `${slug}-${n}` };
    if (!taken.has(candidate.slug)) {
      taken.add(candidate.slug);
      return candidate;
    }
  }
}

/** One kind's plan: each record created, skipped or updated after the strategy when its key is taken. */
function planKind<T extends { slug: string }>(
  records: T[],
  keyOf: (r: T) => string,
  nameOf: (r: T) => string,
  existing: Map<string, { id: string; name: string }>,
  strategy: CollisionStrategy,
  what: string,
  /** 'key': a renamed record shows its new key (`key-2`), not a name. */
  renameAs: 'name' | 'key' = 'name',
): PlanEntry[] {
  const taken = new Set(existing.keys());
  for (const r of records) taken.add(keyOf(r));
  return records.map((r) => {
    const hit = existing.get(keyOf(r));
    if (!hit) return { slug: r.slug, action: 'create', plannedName: nameOf(r), existingId: null, reason: null };
    if (strategy === 'skip') return { slug: r.slug, action: 'skip', plannedName: hit.name, existingId: hit.id, reason: `a ${what} ${JSON.stringify(keyOf(r))} exists; kept as it is` };
    if (strategy === 'replace') return { slug: r.slug, action: 'update', plannedName: nameOf(r), existingId: hit.id, reason: `a ${what} ${JSON.stringify(keyOf(r))} exists; replaced by the bundle's` };
    const fresh = renamed(nameOf(r), keyOf(r), taken);
    return { slug: r.slug, action: 'create', plannedName: renameAs === 'key' ? fresh.slug : fresh.name, existingId: hit.id, reason: `a ${what} ${JSON.stringify(keyOf(r))} exists; created under a new name` };
  });
}

/**
 * The plan, its warnings and errors. Errors are what apply refuses with 422 (a reference to a record
 * neither the bundle nor the target has, an invalid schedule, a missing blob...); warnings are what
 * the import will do differently from the bundle (an in-progress task arrives as todo, an input
 * without a value is left unset).
 */
export async function planImport(db: DbOrTx, model: CompanyModel, opts: ImportOptions, parseWarnings: string[] = []): Promise<PlanResult & { existing: Existing }> {
  const warnings = [...parseWarnings];
  const errors: string[] = [];
  const targetId = opts.target.mode === 'existing_company' ? opts.target.companyId : null;
  let companyName = opts.nameOverrides?.company ?? (opts.target.mode === 'new_company' ? opts.target.newCompanyName : undefined) ?? model.company?.name ?? '';
  let companyAction: ImportPlan['companyAction'] = 'create';
  if (targetId) {
    const [company] = await db.select().from(companies).where(eq(companies.id, targetId));
    if (!company) throw notFound('company');
    companyName = company.name;
    companyAction = opts.collisionStrategy === 'replace' && model.company ? 'update' : 'none';
  } else if (!companyName) errors.push('the bundle has no COMPANY.md: give target.newCompanyName');
  const skillKey = (key: string) => (targetId ? skillKeyIn(key, targetId) : key);
  const existing = await loadExisting(db, targetId, model, skillKey);
  const strategy = opts.collisionStrategy;

  const agentPlans = planKind(model.agents, (a) => a.slug, (a) => opts.nameOverrides?.agents?.[a.slug] ?? a.name, existing.agents, strategy, 'agent');
  const projectPlans = planKind(model.projects, (p) => p.slug, (p) => opts.nameOverrides?.projects?.[p.slug] ?? p.name, existing.projects, strategy, 'project');
  const goalPlans = planKind(model.goals, (g) => g.title, (g) => g.title, existing.goals, strategy, 'goal');
  const issuePlans = planKind(model.issues, (i) => i.title, (i) => i.title, existing.issues, strategy, 'task');
  const routinePlans = planKind(model.routines, (r) => r.title, (r) => r.title, existing.routines, strategy, 'routine');
  const skillPlans = planKind(model.skills, (s) => skillKey(s.key), (s) => skillKey(s.key), existing.skills, strategy, 'skill', 'key');

  // References: to a record of the bundle, or (into an existing company) to one the target has.
  const known = (slugs: Iterable<string>, target: Map<string, unknown>) => {
    const set = new Set(slugs);
    return (slug: string | null) => slug === null || set.has(slug) || target.has(slug);
  };
  const agentKnown = known(model.agents.map((a) => a.slug), existing.agents);
  const projectKnown = known(model.projects.map((p) => p.slug), new Map());
  const goalKnown = known(model.goals.map((g) => g.slug), new Map());
  const issueKnown = known(model.issues.map((i) => i.slug), new Map());
  const check = (ok: boolean, message: string) => ok || errors.push(message);
  for (const a of model.agents) {
    const override = opts.adapterOverrides?.[a.slug];
    check(Boolean(override?.adapterType ?? a.adapterType), `agents/${a.slug}: no adapter type (give adapterOverrides.${a.slug})`);
    check(agentKnown(a.reportsTo), `agents/${a.slug}: reportsTo ${a.reportsTo} is no agent of the bundle`);
  }
  for (const p of model.projects) {
    check(projectStatus.safeParse(p.status).success, `projects/${p.slug}: unknown status ${p.status}`);
    check(agentKnown(p.lead), `projects/${p.slug}: lead ${p.lead} is no agent of the bundle`);
    for (const g of p.goals) check(goalKnown(g), `projects/${p.slug}: goal ${g} is no goal of the bundle`);
  }
  for (const g of model.goals) {
    check(goalLevel.safeParse(g.level).success, `goals/${g.slug}: unknown level ${g.level}`);
    check(goalStatus.safeParse(g.status).success, `goals/${g.slug}: unknown status ${g.status}`);
    check(goalKnown(g.parent), `goals/${g.slug}: parent ${g.parent} is no goal of the bundle`);
    check(agentKnown(g.owner), `goals/${g.slug}: owner ${g.owner} is no agent of the bundle`);
  }
  const blobs = new Set(model.blobs.map((b) => b.sha256));
  for (const b of model.blobs) check(createHash('sha256').update(fileBytes({ encoding: 'base64', data: b.data })).digest('hex') === b.sha256, `blobs/${b.sha256}: the content does not hash to its name`);
  for (const i of model.issues) {
    const at = `tasks/${i.slug}`;
    check(projectKnown(i.project), `${at}: project ${i.project} is no project of the bundle`);
    check(goalKnown(i.goal), `${at}: goal ${i.goal} is no goal of the bundle`);
    check(issueKnown(i.parent), `${at}: parent ${i.parent} is no task of the bundle`);
    check(agentKnown(i.assignee), `${at}: assignee ${i.assignee} is no agent of the bundle`);
    check((ISSUE_STATUSES as readonly string[]).includes(i.status), `${at}: unknown status ${i.status}`);
    check((ISSUE_PRIORITIES as readonly string[]).includes(i.priority), `${at}: unknown priority ${i.priority}`);
    if (i.status === 'in_progress') warnings.push(`${at}: in_progress needs a checkout by a run; imported as todo`);
    for (const a of i.attachments) check(blobs.has(a.sha256), `${at}: attachment blobs/${a.sha256} is not in the bundle`);
  }
  for (const r of model.routines) {
    const at = `tasks/${r.slug}`;
    check(agentKnown(r.assignee), `${at}: assignee ${r.assignee} is no agent of the bundle`);
    check(projectKnown(r.project), `${at}: project ${r.project} is no project of the bundle`);
    check(goalKnown(r.goal), `${at}: goal ${r.goal} is no goal of the bundle`);
    check((CONCURRENCY_POLICIES as readonly string[]).includes(r.concurrencyPolicy), `${at}: unknown concurrencyPolicy ${r.concurrencyPolicy}`);
    check((CATCH_UP_POLICIES as readonly string[]).includes(r.catchUpPolicy), `${at}: unknown catchUpPolicy ${r.catchUpPolicy}`);
    const variables = routineVariables.safeParse(r.variables);
    if (!variables.success) errors.push(`${at}: variables: ${variables.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    for (const t of r.triggers) {
      if (t.kind !== 'schedule') continue;
      try {
        assertValidSchedule(t.cronExpression ?? '', t.timezone ?? 'UTC');
      } catch (err) {
        errors.push(`${at}: trigger ${t.label ?? t.cronExpression}: ${(err as Error).message}`);
      }
    }
  }
  for (const s of model.skills) {
    try {
      buildPackage(skillFilesOf(s.files), s.slug);
    } catch (err) {
      errors.push(`skills/${s.slug}: ${(err as Error).message}`);
    }
  }
  const supplied = opts.secretValues ?? {};
  const envInputs = model.envInputs.map((i) => ({ ...i, supplied: typeof supplied[i.key] === 'string' || existing.secrets.has(i.key) }));
  for (const i of envInputs) if (!i.supplied) warnings.push(`input ${i.key} has no value: the env ${i.usedBy.map((u) => `${u.path} ${u.env}`).join(', ')} is left unset (give secretValues.${i.key})`);
  for (const key of Object.keys(supplied)) if (!model.envInputs.some((i) => i.key === key)) warnings.push(`secretValues.${key} is no input of the bundle; ignored`);
  for (const key of Object.keys(supplied)) if (existing.secrets.has(key)) warnings.push(`secret ${key} exists in the company: referenced as it is, the supplied value is not stored`);
  return {
    plan: { companyAction, companyName, agentPlans, projectPlans, goalPlans, issuePlans, routinePlans, skillPlans },
    warnings,
    errors,
    envInputs,
    existing,
  };
}

/** Routine variables as the routines area accepts them (defaults filled in). */
const routineVariables = createRoutineBody.shape.variables.unwrap();

const skillFilesOf = (files: CompanyModel['skills'][number]['files']) =>
  files.map((f) => ({ path: f.path, kind: classify(f.path), encoding: f.encoding, content: f.content, size: f.encoding === 'utf8' ? Buffer.byteLength(f.content) : Buffer.from(f.content, 'base64').length }));

export interface ApplyDeps {
  storage: Storage;
  masterKey: Buffer;
}

/**
 * Plans again and applies, all in one transaction. 422 while the plan has errors. Agents and
 * routines arrive paused (replaced ones too): an import never starts spending on its own.
 */
export async function applyImport(db: Db, actor: Actor, deps: ApplyDeps, model: CompanyModel, opts: ImportOptions, parseWarnings: string[] = []): Promise<ApplyResult> {
  // The logo is checked (and an SVG sanitised) before the transaction: it may throw 415/400.
  const logo = model.logo ? await prepareLogo({ bytes: fileBytes({ encoding: 'base64', data: model.logo.data }), contentType: model.logo.contentType, filename: 'logo' }) : null;
  return db.transaction(async (tx) => {
    if (opts.target.mode === 'existing_company') await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, opts.target.companyId)).for('update');
    const { plan, warnings, errors, existing } = await planImport(tx, model, opts, parseWarnings);
    if (errors.length > 0) throw unprocessable(`the import plan has ${errors.length} error(s): ${errors.slice(0, 3).join('; ')}`, { errors });
    return carryOut(tx, actor, deps, model, opts, plan, warnings, existing, logo);
  });
}

async function carryOut(
  tx: Tx,
  actor: Actor,
  deps: ApplyDeps,
  model: CompanyModel,
  opts: ImportOptions,
  plan: ImportPlan,
  warnings: string[],
  existing: Existing,
  logo: Awaited<ReturnType<typeof prepareLogo>> | null,
): Promise<ApplyResult> {
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
      await tx.update(companies).set({ description: c.description, brandColor: c.brandColor, updatedAt: sql`now()` }).where(eq(companies.id, companyId));
      await syncMonthlyBudgetPolicy(tx, actor, companyId, 'company', companyId, c.budgetMonthlyCents);
      companyAction = 'updated';
    }
  }
  if (logo && companyAction !== 'unchanged') {
    const asset = await storeAsset(tx, deps.storage, actor, companyId, 'logo', logo);
    await tx.update(companies).set({ logoAssetId: asset.id }).where(eq(companies.id, companyId));
  }
  // Bundled skills exist in a company once listed: the agents' references to them must resolve now.
  await ensureBundled(tx, companyId);
  const stamp = { createdByUserId: actor.kind === 'board' ? actor.userId : null, createdByAgentId: actor.kind === 'agent' ? actor.agentId : null };

  // Secrets: supplied input values become company secrets, referenced at `latest`.
  const secretIds = new Map(existing.secrets);
  for (const input of model.envInputs) {
    const value = opts.secretValues?.[input.key];
    if (secretIds.has(input.key) || typeof value !== 'string') continue;
    const id = randomUUID();
    await tx.insert(secrets).values({ id, companyId, name: input.key, provider: DEFAULT_SECRET_PROVIDER, latestVersion: 1, description: `imported input (${input.usedBy.map((u) => u.path).join(', ')})`, ...stamp });
    await tx.insert(secretVersions).values({ companyId, secretId: id, version: 1, ...sealSecret(deps.masterKey, { companyId, secretId: id, version: 1 }, value) });
    secretIds.set(input.key, id);
  }

  // Ids by bundle slug: created, updated or (skip) the existing record references resolve to.
  const ids = { agents: new Map<string, string>(), projects: new Map<string, string>(), goals: new Map<string, string>(), issues: new Map<string, string>(), skills: new Map<string, string>() };
  for (const [slug, hit] of existing.agents) ids.agents.set(slug, hit.id);
  const result = (entries: PlanEntry[], map: Map<string, string> | null) => entries.map((e) => ({ slug: e.slug, id: map?.get(e.slug) ?? e.existingId, action: e.action }));

  // Skills first: agents attach to them. A company-managed key names its company: rewritten to this one.
  const skillKeys = new Map<string, string>();
  for (const [i, s] of model.skills.entries()) {
    const entry = plan.skillPlans[i]!;
    if (entry.action === 'skip') {
      skillKeys.set(s.key, skillKeyIn(s.key, companyId));
      continue;
    }
    const pkg = buildPackage(skillFilesOf(s.files), s.slug);
    // The plan's key: the bundle's (in this company's form), or its new one when renamed.
    const key = entry.action === 'create' && entry.existingId ? entry.plannedName : skillKeyIn(s.key, companyId);
    const values = { companyId, key, slug: pkg.slug, name: pkg.name, description: pkg.description, required: pkg.required, sourceKind: s.sourceKind === 'service_bundled' ? 'managed_local' : s.sourceKind, sourceLocator: null, trustLevel: pkg.trustLevel, metadata: pkg.metadata, contentHash: pkg.contentHash };
    let skillId: string;
    if (entry.action === 'update') {
      skillId = entry.existingId!;
      await tx.update(companySkills).set({ ...values, updatedAt: sql`now()` }).where(eq(companySkills.id, skillId));
      await tx.delete(companySkillFiles).where(eq(companySkillFiles.skillId, skillId));
    } else {
      const [row] = await tx.insert(companySkills).values(values).returning({ id: companySkills.id });
      skillId = row!.id;
    }
    if (pkg.files.length > 0) await tx.insert(companySkillFiles).values(pkg.files.map((f) => ({ skillId, companyId, path: f.path, kind: f.kind, encoding: f.encoding, content: f.content, size: f.size })));
    ids.skills.set(s.slug, skillId);
    skillKeys.set(s.key, key);
  }

  // Agents: inserted without managers first, then linked (a manager may come later in the bundle).
  const agentTaken = new Set(existing.agents.keys());
  for (const a of model.agents) agentTaken.add(a.slug);
  for (const [i, a] of model.agents.entries()) {
    const entry = plan.agentPlans[i]!;
    if (entry.action === 'skip') continue;
    const override = opts.adapterOverrides?.[a.slug];
    const { env, ...config } = (override?.adapterConfig ?? a.adapterConfig) as Record<string, unknown> & { env?: Record<string, unknown> };
    const resolvedEnv = importEnv(env ?? null, secretIds);
    // The skill selection names skills by key: a company-managed key now names this company.
    const sync = config.serviceSkillSync as { desiredSkills?: unknown } | undefined;
    if (sync && Array.isArray(sync.desiredSkills)) {
      config.serviceSkillSync = { ...sync, desiredSkills: sync.desiredSkills.map((k) => (typeof k === 'string' ? (skillKeys.get(k) ?? skillKeyIn(k, companyId)) : k)) };
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
      id = entry.existingId!;
      await tx.update(agents).set({ ...values, updatedAt: sql`now()` }).where(eq(agents.id, id));
      await tx.delete(agentSkills).where(eq(agentSkills.agentId, id));
    } else {
      const urlKey = entry.existingId ? renamed(a.slug, a.slug, agentTaken).slug : a.slug;
      const [row] = await tx.insert(agents).values({ ...values, urlKey }).returning({ id: agents.id });
      id = row!.id;
    }
    ids.agents.set(a.slug, id);
    await syncMonthlyBudgetPolicy(tx, actor, companyId, 'agent', id, a.budgetMonthlyCents);
    const wanted = a.skills.map((k) => skillKeys.get(k) ?? skillKeyIn(k, companyId));
    const found = wanted.length === 0 ? [] : await tx.select({ id: companySkills.id, key: companySkills.key }).from(companySkills).where(and(eq(companySkills.companyId, companyId), inArray(companySkills.key, wanted)));
    const missing = wanted.filter((k) => !found.some((f) => f.key === k));
    if (missing.length > 0) warnings.push(`agents/${a.slug}: skills ${missing.join(', ')} are not in this company; not attached`);
    if (found.length > 0) await tx.insert(agentSkills).values(found.map((f) => ({ companyId, agentId: id, skillId: f.id })));
  }
  for (const [i, a] of model.agents.entries()) {
    if (plan.agentPlans[i]!.action === 'skip') continue;
    await tx.update(agents).set({ reportsTo: a.reportsTo ? (ids.agents.get(a.reportsTo) ?? null) : null }).where(eq(agents.id, ids.agents.get(a.slug)!));
  }
  const agentId = (slug: string | null) => (slug ? (ids.agents.get(slug) ?? null) : null);

  // Goals, then parents.
  for (const [i, g] of model.goals.entries()) {
    const entry = plan.goalPlans[i]!;
    if (entry.action === 'skip') {
      ids.goals.set(g.slug, entry.existingId!);
      continue;
    }
    const values = { companyId, title: entry.plannedName, description: g.description, level: g.level, status: g.status, ownerAgentId: agentId(g.owner) };
    if (entry.action === 'update') {
      await tx.update(goals).set({ ...values, updatedAt: sql`now()` }).where(eq(goals.id, entry.existingId!));
      ids.goals.set(g.slug, entry.existingId!);
    } else {
      const [row] = await tx.insert(goals).values(values).returning({ id: goals.id });
      ids.goals.set(g.slug, row!.id);
    }
  }
  for (const [i, g] of model.goals.entries()) {
    if (plan.goalPlans[i]!.action === 'skip') continue;
    await tx.update(goals).set({ parentId: g.parent ? (ids.goals.get(g.parent) ?? null) : null }).where(eq(goals.id, ids.goals.get(g.slug)!));
  }
  const goalId = (slug: string | null) => (slug ? (ids.goals.get(slug) ?? null) : null);

  // Projects with their goals and workspaces (a replaced project's workspaces are the bundle's).
  const projectTaken = new Set(existing.projects.keys());
  for (const p of model.projects) projectTaken.add(p.slug);
  for (const [i, p] of model.projects.entries()) {
    const entry = plan.projectPlans[i]!;
    if (entry.action === 'skip') {
      ids.projects.set(p.slug, entry.existingId!);
      continue;
    }
    const linked = p.goals.map((g) => ids.goals.get(g)).filter((g): g is string => Boolean(g));
    const values = { companyId, name: entry.plannedName, description: p.description, status: p.status, color: p.color, targetDate: p.targetDate, leadAgentId: agentId(p.lead), goalId: linked[0] ?? null, env: importEnv(p.env, secretIds) };
    let id: string;
    if (entry.action === 'update') {
      id = entry.existingId!;
      await tx.update(projects).set({ ...values, updatedAt: sql`now()` }).where(eq(projects.id, id));
      await tx.delete(projectGoals).where(eq(projectGoals.projectId, id));
      await tx.delete(projectWorkspaces).where(eq(projectWorkspaces.projectId, id));
    } else {
      const urlKey = entry.existingId ? renamed(p.slug, p.slug, projectTaken).slug : p.slug;
      const [row] = await tx.insert(projects).values({ ...values, urlKey }).returning({ id: projects.id });
      id = row!.id;
    }
    ids.projects.set(p.slug, id);
    if (linked.length > 0) await tx.insert(projectGoals).values(linked.map((g, position) => ({ companyId, projectId: id, goalId: g, position })));
    // A local workspace whose path was left out at export has nothing to point at: the board adds it again.
    const usable = p.workspaces.filter((w) => w.cwd || w.repoUrl);
    if (usable.length < p.workspaces.length) warnings.push(`projects/${p.slug}: ${p.workspaces.length - usable.length} workspace(s) without a path or repository were not created`);
    if (usable.length > 0) await tx.insert(projectWorkspaces).values(usable.map((w) => ({ ...w, companyId, projectId: id })));
  }
  const projectId = (slug: string | null) => (slug ? (ids.projects.get(slug) ?? null) : null);

  // Tasks: numbers taken in one counter bump, then parents, documents and attachments.
  const creates = plan.issuePlans.filter((e) => e.action === 'create').length;
  let next = 0;
  let prefix = '';
  if (creates > 0) {
    const bumped = await tx.execute<{ n: number; prefix: string }>(sql`update companies set issue_counter = issue_counter + ${creates} where id = ${companyId} returning issue_counter - ${creates} as n, issue_prefix as prefix`);
    next = Number(bumped.rows[0]!.n);
    prefix = bumped.rows[0]!.prefix;
  }
  const blobs = new Map(model.blobs.map((b) => [b.sha256, b]));
  for (const [i, t] of model.issues.entries()) {
    const entry = plan.issuePlans[i]!;
    if (entry.action === 'skip') {
      ids.issues.set(t.slug, entry.existingId!);
      continue;
    }
    const status = t.status === 'in_progress' ? 'todo' : t.status;
    const values = {
      title: entry.plannedName,
      description: t.description,
      status,
      priority: t.priority,
      projectId: projectId(t.project),
      goalId: goalId(t.goal),
      assigneeAgentId: agentId(t.assignee),
      billingCode: t.billingCode,
      completedAt: status === 'done' ? new Date() : null,
      cancelledAt: status === 'cancelled' ? new Date() : null,
    };
    let id: string;
    if (entry.action === 'update') {
      id = entry.existingId!;
      await tx.update(issues).set({ ...values, updatedAt: sql`now()` }).where(eq(issues.id, id));
    } else {
      const number = next++;
      const [row] = await tx
        .insert(issues)
        .values({ ...values, companyId, number, identifier: `${prefix}-${number}`, originKind: 'manual', createdByUserId: actor.kind === 'board' ? actor.userId : null, createdByAgentId: actor.kind === 'agent' ? actor.agentId : null })
        .returning({ id: issues.id });
      id = row!.id;
    }
    ids.issues.set(t.slug, id);
    for (const d of t.documents) await putDocument(tx, actor, companyId, id, d);
    const attached = entry.action === 'update' ? await tx.select({ sha256: assets.sha256 }).from(issueAttachments).innerJoin(assets, eq(assets.id, issueAttachments.assetId)).where(eq(issueAttachments.issueId, id)) : [];
    for (const a of t.attachments) {
      if (attached.some((x) => x.sha256 === a.sha256)) continue;
      const b = blobs.get(a.sha256)!;
      const asset = await storeAsset(tx, deps.storage, actor, companyId, 'attachment', { bytes: fileBytes({ encoding: 'base64', data: b.data }), contentType: a.contentType, filename: a.name ?? a.sha256 });
      await tx.insert(issueAttachments).values({ companyId, issueId: id, assetId: asset.id });
    }
  }
  for (const [i, t] of model.issues.entries()) {
    if (plan.issuePlans[i]!.action === 'skip' || !t.parent) continue;
    await tx.update(issues).set({ parentId: ids.issues.get(t.parent) ?? null }).where(eq(issues.id, ids.issues.get(t.slug)!));
  }

  // Routines, paused, with their triggers (a webhook gets a new public id and secret: rotate it to read it).
  const routineIds = new Map<string, string>();
  for (const [i, r] of model.routines.entries()) {
    const entry = plan.routinePlans[i]!;
    if (entry.action === 'skip') continue;
    const values = {
      companyId,
      title: entry.plannedName,
      description: r.description,
      assigneeAgentId: agentId(r.assignee),
      projectId: projectId(r.project),
      goalId: goalId(r.goal),
      priority: r.priority,
      status: 'paused',
      concurrencyPolicy: r.concurrencyPolicy,
      catchUpPolicy: r.catchUpPolicy,
      variables: routineVariables.parse(r.variables).map((v) => ({ name: v.name, label: v.label ?? null, type: v.type, required: v.required, defaultValue: v.defaultValue ?? null })),
    };
    let id: string;
    if (entry.action === 'update') {
      id = entry.existingId!;
      await tx.update(routines).set({ ...values, updatedAt: sql`now()` }).where(eq(routines.id, id));
      await tx.delete(routineTriggers).where(eq(routineTriggers.routineId, id));
    } else {
      const [row] = await tx.insert(routines).values({ ...values, createdByUserId: actor.kind === 'board' ? actor.userId : null, createdByAgentId: actor.kind === 'agent' ? actor.agentId : null }).returning({ id: routines.id });
      id = row!.id;
    }
    routineIds.set(r.slug, id);
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
        ...(webhook && signingMode !== 'none' && sealWebhookSecret(deps.masterKey, { companyId, id: triggerId, secretVersion: 0 }, newWebhookSecret())),
      });
    }
  }

  const out: ApplyResult = {
    company: { id: companyId, name: plan.companyName, action: companyAction },
    agents: result(plan.agentPlans, ids.agents),
    projects: result(plan.projectPlans, ids.projects),
    goals: result(plan.goalPlans, ids.goals),
    issues: result(plan.issuePlans, ids.issues),
    routines: result(plan.routinePlans, routineIds),
    skills: result(plan.skillPlans, ids.skills),
    warnings,
  };
  const count = (entries: PlanEntry[]) => ({ created: entries.filter((e) => e.action === 'create').length, updated: entries.filter((e) => e.action === 'update').length, skipped: entries.filter((e) => e.action === 'skip').length });
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

/** A document of a task: created at revision 1, or (replace) given the bundle's body as its next revision. */
async function putDocument(tx: Tx, actor: Actor, companyId: string, issueId: string, d: CompanyModel['issues'][number]['documents'][number]): Promise<void> {
  const by = { createdByUserId: actor.kind === 'board' ? actor.userId : null, createdByAgentId: actor.kind === 'agent' ? actor.agentId : null };
  const [current] = await tx.select().from(issueDocuments).where(and(eq(issueDocuments.issueId, issueId), eq(issueDocuments.key, d.key))).for('update');
  const documentId = current?.id ?? randomUUID();
  if (!current) await tx.insert(issueDocuments).values({ id: documentId, companyId, issueId, key: d.key, title: d.title, format: d.format });
  const number = (current?.latestRevisionNumber ?? 0) + 1;
  const [revision] = await tx.insert(issueDocumentRevisions).values({ companyId, documentId, revisionNumber: number, title: d.title, body: d.body, changeSummary: 'imported', ...by }).returning({ id: issueDocumentRevisions.id });
  await tx.update(issueDocuments).set({ title: d.title, latestRevisionId: revision!.id, latestRevisionNumber: number, updatedAt: sql`now()` }).where(eq(issueDocuments.id, documentId));
}

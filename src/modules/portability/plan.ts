// Import, the plan: a parsed bundle against its target (a new company, or an existing one with a
// collision strategy). Per record: create, update or skip, the name it will get, and why; plus the
// warnings and the errors that stop apply (apply.ts). Nothing is written here.
import { createHash } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents, companies, companySkills, goals, issues, projects, routines, secrets } from '../../db/schema/index.ts';
import { notFound } from '../../core/errors.ts';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from '../../core/statuses.ts';
import { assertValidSchedule } from '../routines/schedule.ts';
import { CATCH_UP_POLICIES, CONCURRENCY_POLICIES, createRoutineBody, createTriggerBody } from '../routines/schemas.ts';
import { goalLevel, goalStatus } from '../goals/schemas.ts';
import { projectStatus } from '../projects/schemas.ts';
import { buildPackage, classify } from '../skills/package.ts';
import { fileBytes, type CompanyModel, type EnvInput } from './bundle.ts';

export const COLLISION_STRATEGIES = ['rename', 'skip', 'replace'] as const;
export type CollisionStrategy = (typeof COLLISION_STRATEGIES)[number];

export type ImportTarget =
  | { mode: 'new_company'; newCompanyName?: string | undefined }
  | { mode: 'existing_company'; companyId: string };

export interface ImportOptions {
  target: ImportTarget;
  collisionStrategy: CollisionStrategy;
  nameOverrides?:
    | {
        company?: string | undefined;
        agents?: Record<string, string> | undefined;
        projects?: Record<string, string> | undefined;
      }
    | undefined;
  secretValues?: Record<string, string> | undefined;
  adapterOverrides?:
    | Record<string, { adapterType: string; adapterConfig?: Record<string, unknown> | undefined }>
    | undefined;
}

export type PlanAction = 'create' | 'update' | 'skip';
/** What the import does with one record; updating or skipping names the target's record it collides with. */
export type PlanEntry = { slug: string; plannedName: string; reason: string | null } & (
  | { action: 'create'; existingId: string | null }
  | { action: 'update' | 'skip'; existingId: string }
);

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

/** What the target already holds, by the keys a bundle collides on. */
export interface Existing {
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
async function loadExisting(
  db: DbOrTx,
  companyId: string | null,
  model: CompanyModel,
  skillKey: (k: string) => string,
): Promise<Existing> {
  const empty = new Map<string, { id: string; name: string }>();
  if (!companyId)
    return {
      companyId,
      agents: empty,
      projects: empty,
      goals: empty,
      issues: empty,
      routines: empty,
      skills: empty,
      secrets: new Map(),
    };
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
    agents: agentSlugs
      ? byKey(
          await db
            .select({ id: agents.id, urlKey: agents.urlKey, name: agents.name })
            .from(agents)
            .where(and(eq(agents.companyId, companyId), ne(agents.status, 'terminated')))
            .limit(MAX_TARGET_KEYS),
          (r) => r.urlKey,
          (r) => r.name,
        )
      : empty,
    projects: projectSlugs
      ? byKey(
          await db
            .select({ id: projects.id, urlKey: projects.urlKey, name: projects.name })
            .from(projects)
            .where(eq(projects.companyId, companyId))
            .limit(MAX_TARGET_KEYS),
          (r) => r.urlKey,
          (r) => r.name,
        )
      : empty,
    goals: goalTitles
      ? byKey(
          await db
            .select()
            .from(goals)
            .where(and(eq(goals.companyId, companyId), inArray(goals.title, goalTitles))),
          (r) => r.title,
          (r) => r.title,
        )
      : empty,
    issues: issueTitles
      ? byKey(
          await db
            .select({ id: issues.id, title: issues.title })
            .from(issues)
            .where(
              and(
                eq(issues.companyId, companyId),
                inArray(issues.title, issueTitles),
                ne(issues.originKind, 'routine_execution'),
              ),
            ),
          (r) => r.title,
          (r) => r.title,
        )
      : empty,
    routines: routineTitles
      ? byKey(
          await db
            .select()
            .from(routines)
            .where(
              and(
                eq(routines.companyId, companyId),
                ne(routines.status, 'archived'),
                inArray(routines.title, routineTitles),
              ),
            ),
          (r) => r.title,
          (r) => r.title,
        )
      : empty,
    skills: keys
      ? byKey(
          await db
            .select({ id: companySkills.id, key: companySkills.key })
            .from(companySkills)
            .where(eq(companySkills.companyId, companyId))
            .limit(MAX_TARGET_KEYS),
          (r) => r.key,
          (r) => r.key,
        )
      : empty,
    secrets: inputKeys
      ? new Map(
          (
            await db
              .select()
              .from(secrets)
              .where(and(eq(secrets.companyId, companyId), inArray(secrets.name, inputKeys)))
          ).map((s) => [s.name, s.id]),
        )
      : new Map(),
  };
}

/** A company-managed skill key names its company (`company/<id>/<slug>`): in another company it names that one. */
export const skillKeyIn = (key: string, companyId: string) => key.replace(/^company\/[^/]+\//, `company/${companyId}/`);

/** `name 2`, `name 3`...: the first whose slug is free in `taken` (which it joins). */
export function renamed(name: string, slug: string, taken: Set<string>): { name: string; slug: string } {
  for (let n = 2; ; n += 1) {
    const candidate = { name: `${name} ${n}`, slug: `${slug}-${n}` };
    if (!taken.has(candidate.slug)) {
      taken.add(candidate.slug);
      return candidate;
    }
  }
}

/** The records of one kind, what identifies each, and what the target already holds under those keys. */
interface KindToPlan<T> {
  /** The kind as the reasons name it: `agent`, `task`... */
  what: string;
  records: T[];
  /** The key two records collide on (a slug, a title). */
  keyOf: (r: T) => string;
  nameOf: (r: T) => string;
  existing: Map<string, { id: string; name: string }>;
  strategy: CollisionStrategy;
  /** 'key': a renamed record shows its new key (`key-2`), not a name. */
  renameAs?: 'name' | 'key';
}

/** One kind's plan: each record created, skipped or updated after the strategy when its key is taken. */
function planKind<T extends { slug: string }>({
  what,
  records,
  keyOf,
  nameOf,
  existing,
  strategy,
  renameAs = 'name',
}: KindToPlan<T>): PlanEntry[] {
  const taken = new Set(existing.keys());
  for (const r of records) taken.add(keyOf(r));
  return records.map((r) => {
    const hit = existing.get(keyOf(r));
    if (!hit) return { slug: r.slug, action: 'create', plannedName: nameOf(r), existingId: null, reason: null };
    if (strategy === 'skip')
      return {
        slug: r.slug,
        action: 'skip',
        plannedName: hit.name,
        existingId: hit.id,
        reason: `a ${what} ${JSON.stringify(keyOf(r))} exists; kept as it is`,
      };
    if (strategy === 'replace')
      return {
        slug: r.slug,
        action: 'update',
        plannedName: nameOf(r),
        existingId: hit.id,
        reason: `a ${what} ${JSON.stringify(keyOf(r))} exists; replaced by the bundle's`,
      };
    const fresh = renamed(nameOf(r), keyOf(r), taken);
    return {
      slug: r.slug,
      action: 'create',
      plannedName: renameAs === 'key' ? fresh.slug : fresh.name,
      existingId: hit.id,
      reason: `a ${what} ${JSON.stringify(keyOf(r))} exists; created under a new name`,
    };
  });
}

/**
 * The plan, its warnings and errors. Errors are what apply refuses with 422 (a reference to a record
 * neither the bundle nor the target has, an invalid schedule, a missing blob...); warnings are what
 * the import will do differently from the bundle (an in-progress task arrives as todo, an input
 * without a value is left unset).
 */
export async function planImport(
  db: DbOrTx,
  model: CompanyModel,
  opts: ImportOptions,
  parseWarnings: string[] = [],
): Promise<PlanResult & { existing: Existing }> {
  const warnings = [...parseWarnings];
  const errors: string[] = [];
  const targetId = opts.target.mode === 'existing_company' ? opts.target.companyId : null;
  let companyName =
    opts.nameOverrides?.company ??
    (opts.target.mode === 'new_company' ? opts.target.newCompanyName : undefined) ??
    model.company?.name ??
    '';
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

  const agentPlans = planKind({
    what: 'agent',
    records: model.agents,
    keyOf: (a) => a.slug,
    nameOf: (a) => opts.nameOverrides?.agents?.[a.slug] ?? a.name,
    existing: existing.agents,
    strategy,
  });
  const projectPlans = planKind({
    what: 'project',
    records: model.projects,
    keyOf: (p) => p.slug,
    nameOf: (p) => opts.nameOverrides?.projects?.[p.slug] ?? p.name,
    existing: existing.projects,
    strategy,
  });
  const goalPlans = planKind({
    what: 'goal',
    records: model.goals,
    keyOf: (g) => g.title,
    nameOf: (g) => g.title,
    existing: existing.goals,
    strategy,
  });
  const issuePlans = planKind({
    what: 'task',
    records: model.issues,
    keyOf: (i) => i.title,
    nameOf: (i) => i.title,
    existing: existing.issues,
    strategy,
  });
  const routinePlans = planKind({
    what: 'routine',
    records: model.routines,
    keyOf: (r) => r.title,
    nameOf: (r) => r.title,
    existing: existing.routines,
    strategy,
  });
  const skillPlans = planKind({
    what: 'skill',
    records: model.skills,
    keyOf: (s) => skillKey(s.key),
    nameOf: (s) => skillKey(s.key),
    existing: existing.skills,
    strategy,
    renameAs: 'key',
  });

  // References: to a record of the bundle, or (into an existing company) to one the target has.
  const known = (slugs: Iterable<string>, target: Map<string, unknown>) => {
    const set = new Set(slugs);
    return (slug: string | null) => slug === null || set.has(slug) || target.has(slug);
  };
  const agentKnown = known(
    model.agents.map((a) => a.slug),
    existing.agents,
  );
  const projectKnown = known(
    model.projects.map((p) => p.slug),
    new Map(),
  );
  const goalKnown = known(
    model.goals.map((g) => g.slug),
    new Map(),
  );
  const issueKnown = known(
    model.issues.map((i) => i.slug),
    new Map(),
  );
  const check = (ok: boolean, message: string) => ok || errors.push(message);
  for (const a of model.agents) {
    const override = opts.adapterOverrides?.[a.slug];
    check(
      Boolean(override?.adapterType ?? a.adapterType),
      `agents/${a.slug}: no adapter type (give adapterOverrides.${a.slug})`,
    );
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
  for (const b of model.blobs)
    check(
      createHash('sha256')
        .update(fileBytes({ encoding: 'base64', data: b.data }))
        .digest('hex') === b.sha256,
      `blobs/${b.sha256}: the content does not hash to its name`,
    );
  for (const i of model.issues) {
    const at = `tasks/${i.slug}`;
    check(projectKnown(i.project), `${at}: project ${i.project} is no project of the bundle`);
    check(goalKnown(i.goal), `${at}: goal ${i.goal} is no goal of the bundle`);
    check(issueKnown(i.parent), `${at}: parent ${i.parent} is no task of the bundle`);
    check(agentKnown(i.assignee), `${at}: assignee ${i.assignee} is no agent of the bundle`);
    check((ISSUE_STATUSES as readonly string[]).includes(i.status), `${at}: unknown status ${i.status}`);
    check((ISSUE_PRIORITIES as readonly string[]).includes(i.priority), `${at}: unknown priority ${i.priority}`);
    if (i.status === 'in_progress') warnings.push(`${at}: in_progress needs a checkout by a run; imported as todo`);
    for (const a of i.attachments)
      check(blobs.has(a.sha256), `${at}: attachment blobs/${a.sha256} is not in the bundle`);
  }
  for (const r of model.routines) {
    const at = `tasks/${r.slug}`;
    check(agentKnown(r.assignee), `${at}: assignee ${r.assignee} is no agent of the bundle`);
    check(projectKnown(r.project), `${at}: project ${r.project} is no project of the bundle`);
    check(goalKnown(r.goal), `${at}: goal ${r.goal} is no goal of the bundle`);
    check(
      (CONCURRENCY_POLICIES as readonly string[]).includes(r.concurrencyPolicy),
      `${at}: unknown concurrencyPolicy ${r.concurrencyPolicy}`,
    );
    check(
      (CATCH_UP_POLICIES as readonly string[]).includes(r.catchUpPolicy),
      `${at}: unknown catchUpPolicy ${r.catchUpPolicy}`,
    );
    const variables = routineVariables.safeParse(r.variables);
    if (!variables.success)
      errors.push(
        `${at}: variables: ${variables.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
    for (const t of r.triggers) {
      if (t.kind === 'webhook') {
        // What POST /api/routines/{id}/triggers would refuse (a replay window outside 30 to 86400 s
        // undoes the replay protection; an unknown signing mode is none of SPEC's).
        const webhook = createTriggerBody.safeParse({
          kind: 'webhook',
          ...(t.signingMode !== null && { signingMode: t.signingMode }),
          ...(t.replayWindowSec !== null && { replayWindowSec: t.replayWindowSec }),
        });
        if (!webhook.success)
          errors.push(
            `${at}: trigger ${t.label ?? 'webhook'}: ${webhook.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
          );
      }
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
  const envInputs = model.envInputs.map((i) => ({
    ...i,
    supplied: typeof supplied[i.key] === 'string' || existing.secrets.has(i.key),
  }));
  for (const i of envInputs)
    if (!i.supplied)
      warnings.push(
        `input ${i.key} has no value: the env ${i.usedBy.map((u) => `${u.path} ${u.env}`).join(', ')} is left unset (give secretValues.${i.key})`,
      );
  for (const key of Object.keys(supplied))
    if (!model.envInputs.some((i) => i.key === key))
      warnings.push(`secretValues.${key} is no input of the bundle; ignored`);
  for (const key of Object.keys(supplied))
    if (existing.secrets.has(key))
      warnings.push(`secret ${key} exists in the company: referenced as it is, the supplied value is not stored`);
  return {
    plan: { companyAction, companyName, agentPlans, projectPlans, goalPlans, issuePlans, routinePlans, skillPlans },
    warnings,
    errors,
    envInputs,
    existing,
  };
}

/** Routine variables as the routines area accepts them (defaults filled in). */
export const routineVariables = createRoutineBody.shape.variables.unwrap();

export const skillFilesOf = (files: CompanyModel['skills'][number]['files']) =>
  files.map((f) => ({
    path: f.path,
    kind: classify(f.path),
    encoding: f.encoding,
    content: f.content,
    size: f.encoding === 'utf8' ? Buffer.byteLength(f.content) : Buffer.from(f.content, 'base64').length,
  }));

// Export: a company read into a CompanyModel in one read-only REPEATABLE READ transaction (a
// consistent snapshot however many writes, imports included, run beside it), then rendered.
import { and, asc, eq, inArray, isNull, ne, notInArray, or } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  agents,
  agentSkills,
  assets,
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
} from '../../db/schema/index.ts';
import type { Company } from '../../core/access.ts';
import { isUuid, slugify } from '../../lib/ids.ts';
import type { Storage } from '../../storage/storage.ts';
import { monthlyBudgetOf, monthlyBudgets } from '../budgets/budget-policies.ts';
import { exportConfig, exportEnv, isMachinePath, type EnvExport } from './env.ts';
import { renderBundle } from './render.ts';
import {
  BUNDLE_LIMITS,
  tooLarge,
  type AgentModel,
  type BlobModel,
  type CompanyModel,
  type EnvInput,
  type IssueModel,
  type RenderedBundle,
  type SourceIds,
  type SystemDependent,
} from './bundle.ts';
import { entryOf } from '../../lib/maps.ts';

export const INCLUDE_KEYS = ['company', 'agents', 'projects', 'goals', 'issues', 'skills', 'routines'] as const;
export type IncludeKey = (typeof INCLUDE_KEYS)[number];

export interface ExportOptions {
  include: Record<IncludeKey, boolean>;
  /** Slugs or ids; absent: all. */
  agents?: string[] | undefined;
  projects?: string[] | undefined;
  issues?: string[] | undefined;
  skills?: string[] | undefined;
  /** Keep workspaces' local paths (machine-specific): off by default. */
  includeWorkspacePaths?: boolean | undefined;
  /** Every plain env value becomes an input: the caller may not read agents' configurations. */
  hidePlainEnv?: boolean | undefined;
}

/** How many of each a bundle takes: beyond this the export answers 413 and asks for a selector. */
export const EXPORT_CAPS = {
  agents: 1000,
  projects: 1000,
  goals: 1000,
  issues: 2000,
  routines: 1000,
  skills: 500,
} as const;

/** `base`, or `base-2`, `base-3`... : the first not in `taken`, which it joins. */
export function uniqueSlug(base: string, taken: Set<string>): string {
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

function capped<T>(rows: T[], what: keyof typeof EXPORT_CAPS): T[] {
  if (rows.length > EXPORT_CAPS[what]) {
    throw tooLarge(
      `the company has more than ${EXPORT_CAPS[what]} ${what}; export a selection (the \`${what}\` selector) or leave them out (include.${what}: false)`,
    );
  }
  return rows;
}

/** A selector (ids, or slugs/keys/identifiers) as a condition on the id column and the name columns. */
function selected(values: string[] | undefined, idColumn: AnyPgColumn, nameColumns: AnyPgColumn[]) {
  if (values === undefined) return undefined;
  const ids = values.filter(isUuid);
  return or(...(ids.length > 0 ? [inArray(idColumn, ids)] : []), ...nameColumns.map((c) => inArray(c, values)));
}

export async function exportCompany(
  db: Db,
  storage: Storage,
  company: Company,
  opts: ExportOptions,
): Promise<RenderedBundle> {
  const { model, warnings, systemDependent, sourceIds } = await db.transaction(
    (tx) => readModel(tx, storage, company, opts),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return renderBundle(model, { warnings, systemDependent, ids: sourceIds });
}

async function readModel(tx: DbOrTx, storage: Storage, company: Company, opts: ExportOptions) {
  const { include } = opts;
  const warnings: string[] = [];
  const systemDependent: SystemDependent[] = [];
  const inputs = new Map<string, EnvInput>();
  const companyId = company.id;
  const secretNames = new Map(
    (
      await tx
        .select({ id: secrets.id, name: secrets.name })
        .from(secrets)
        .where(eq(secrets.companyId, companyId))
        .limit(10_000)
    ).map((s) => [s.id, s.name]),
  );
  const envExport: EnvExport = { secretNames, inputs, warnings, hidePlainValues: opts.hidePlainEnv === true };
  let totalBytes = 0;
  const readBlob = async (sha256: string, contentType: string): Promise<BlobModel> => {
    const bytes = await storage.get(sha256);
    totalBytes += bytes.length;
    if (totalBytes > BUNDLE_LIMITS.maxTotalBytes)
      throw tooLarge(
        `the attachments and logo exceed ${BUNDLE_LIMITS.maxTotalBytes} bytes; export fewer issues (the \`issues\` selector)`,
      );
    return { sha256, contentType, data: bytes.toString('base64') };
  };

  const model: CompanyModel = {
    company: null,
    agents: [],
    projects: [],
    goals: [],
    issues: [],
    routines: [],
    skills: [],
    logo: null,
    blobs: [],
    envInputs: [],
  };
  const sourceIds: SourceIds = {
    company: {},
    agents: {},
    projects: {},
    goals: {},
    issues: {},
    routines: {},
    skills: {},
  };
  if (include.company) {
    model.company = {
      name: company.name,
      slug: slugify(company.name, 'company'),
      description: company.description,
      brandColor: company.brandColor,
      budgetMonthlyCents: (await monthlyBudgetOf(tx, 'company', companyId)).budgetMonthlyCents,
      requireBoardApprovalForNewAgents: company.requireBoardApprovalForNewAgents,
    };
    sourceIds.company[companyId] = model.company.slug;
    if (company.logoAssetId) {
      const [logo] = await tx
        .select()
        .from(assets)
        .where(and(eq(assets.id, company.logoAssetId), eq(assets.companyId, companyId)));
      if (logo) model.logo = await readBlob(logo.sha256, logo.contentType);
    }
  }

  // Records are read in slug (or title) order, not creation order: an import writes a whole company in
  // one transaction (one created_at), and exporting it again must give the same bundle.
  // Slugs of every live agent, project and goal (not only the exported ones), so a reference to one
  // left out is recognised and dropped with a warning instead of pointing at nothing.
  const agentRows =
    include.agents || include.issues || include.routines || include.projects || include.goals
      ? capped(
          await tx
            .select()
            .from(agents)
            .where(and(eq(agents.companyId, companyId), ne(agents.status, 'terminated')))
            .orderBy(asc(agents.urlKey))
            .limit(EXPORT_CAPS.agents + 1),
          'agents',
        )
      : [];
  const agentSlug = new Map(agentRows.map((a) => [a.id, a.urlKey]));
  const exportedAgents = new Set<string>();
  const dropped = new Set<string>();
  const ref = (map: Map<string, string>, exported: Set<string>, id: string | null, what: string) => {
    if (!id) return null;
    const slug = map.get(id);
    if (slug && exported.has(slug)) return slug;
    dropped.add(what);
    return null;
  };

  if (include.agents) {
    const wanted = opts.agents;
    const chosen =
      wanted === undefined ? agentRows : agentRows.filter((a) => wanted.includes(a.id) || wanted.includes(a.urlKey));
    const budgets = await monthlyBudgets(
      tx,
      'agent',
      chosen.map((a) => a.id),
    );
    const skillRows =
      chosen.length === 0
        ? []
        : await tx
            .select({ agentId: agentSkills.agentId, key: companySkills.key })
            .from(agentSkills)
            .innerJoin(companySkills, eq(companySkills.id, agentSkills.skillId))
            .where(
              inArray(
                agentSkills.agentId,
                chosen.map((a) => a.id),
              ),
            );
    for (const a of chosen) exportedAgents.add(a.urlKey);
    for (const a of chosen) {
      const { env, ...config } = a.adapterConfig as Record<string, unknown> & { env?: Record<string, unknown> };
      const exportedEnv = exportEnv(env, `agents/${a.urlKey}`, envExport);
      const agent: AgentModel = {
        slug: a.urlKey,
        name: a.name,
        role: a.role,
        title: a.title,
        capabilities: a.capabilities,
        reportsTo: ref(agentSlug, exportedAgents, a.reportsTo, 'manager'),
        adapterType: a.adapterType,
        adapterConfig: {
          ...exportConfig(config, `agents/${a.urlKey}`, warnings),
          ...(exportedEnv && { env: exportedEnv }),
        },
        runtimeConfig: a.runtimeConfig,
        permissions: { canCreateAgents: a.permissions.canCreateAgents === true, canAssignTasks: a.canAssignTasks },
        budgetMonthlyCents: budgets.get(a.id)?.budgetMonthlyCents ?? 0,
        skills: skillRows
          .filter((s) => s.agentId === a.id)
          .map((s) => s.key)
          .sort(),
      };
      model.agents.push(agent);
      sourceIds.agents[a.id] = agent.slug;
    }
  }

  const goalRows =
    include.goals || include.projects || include.issues || include.routines
      ? capped(
          await tx
            .select()
            .from(goals)
            .where(eq(goals.companyId, companyId))
            .orderBy(asc(goals.title), asc(goals.createdAt), asc(goals.id))
            .limit(EXPORT_CAPS.goals + 1),
          'goals',
        )
      : [];
  const goalTaken = new Set<string>();
  const goalSlug = new Map(goalRows.map((g) => [g.id, uniqueSlug(slugify(g.title, 'goal'), goalTaken)]));
  const exportedGoals = new Set(include.goals ? goalSlug.values() : []);
  if (include.goals) {
    for (const g of goalRows) {
      const slug = entryOf(goalSlug, g.id, 'goal slug');
      sourceIds.goals[g.id] = slug;
      model.goals.push({
        slug,
        title: g.title,
        description: g.description,
        level: g.level,
        status: g.status,
        parent: ref(goalSlug, exportedGoals, g.parentId, 'parent goal'),
        owner: ref(agentSlug, exportedAgents, g.ownerAgentId, 'goal owner'),
      });
    }
  }

  const projectRows =
    include.projects || include.issues || include.routines
      ? capped(
          await tx
            .select()
            .from(projects)
            .where(and(eq(projects.companyId, companyId), isNull(projects.archivedAt)))
            .orderBy(asc(projects.urlKey))
            .limit(EXPORT_CAPS.projects + 1),
          'projects',
        )
      : [];
  const projectSlug = new Map(projectRows.map((p) => [p.id, p.urlKey]));
  const exportedProjects = new Set<string>();
  if (include.projects) {
    const wanted = opts.projects;
    const chosen =
      wanted === undefined
        ? projectRows
        : projectRows.filter((p) => wanted.includes(p.id) || wanted.includes(p.urlKey));
    const ids = chosen.map((p) => p.id);
    const links =
      ids.length === 0
        ? []
        : await tx
            .select()
            .from(projectGoals)
            .where(inArray(projectGoals.projectId, ids))
            .orderBy(asc(projectGoals.position));
    const workspaces =
      ids.length === 0
        ? []
        : await tx
            .select()
            .from(projectWorkspaces)
            .where(and(inArray(projectWorkspaces.projectId, ids), isNull(projectWorkspaces.closedAt)))
            .orderBy(asc(projectWorkspaces.createdAt), asc(projectWorkspaces.name), asc(projectWorkspaces.id))
            .limit(10_000);
    for (const p of chosen) {
      exportedProjects.add(p.urlKey);
      sourceIds.projects[p.id] = p.urlKey;
      const path = `projects/${p.urlKey}/PROJECT.md`;
      model.projects.push({
        slug: p.urlKey,
        name: p.name,
        description: p.description,
        status: p.status,
        color: p.color,
        targetDate: p.targetDate,
        lead: ref(agentSlug, exportedAgents, p.leadAgentId, 'project lead'),
        goals: links
          .filter((l) => l.projectId === p.id)
          .map((l) => ref(goalSlug, exportedGoals, l.goalId, 'project goal'))
          .filter((s): s is string => s !== null),
        env: exportEnv(p.env, `projects/${p.urlKey}`, envExport),
        workspaces: workspaces
          .filter((w) => w.projectId === p.id)
          .map((w, i) => {
            // A local path exists only on this machine: left out unless asked for, then flagged.
            let cwd = w.cwd;
            if (cwd && isMachinePath(cwd)) {
              if (opts.includeWorkspacePaths) systemDependent.push({ path, field: `workspaces[${i}].cwd`, value: cwd });
              else cwd = null;
            }
            return {
              name: w.name,
              sourceType: w.sourceType,
              cwd,
              repoUrl: w.repoUrl,
              repoRef: w.repoRef,
              defaultRef: w.defaultRef,
              isPrimary: w.isPrimary,
              setupCommand: w.setupCommand,
              cleanupCommand: w.cleanupCommand,
            };
          }),
      });
    }
  }

  const taskTaken = new Set<string>();
  if (include.issues) {
    const chosenFilter = selected(
      opts.issues?.map((s) => (isUuid(s) ? s : s.toUpperCase())),
      issues.id,
      [issues.identifier],
    );
    const rows = capped(
      await tx
        .select()
        .from(issues)
        .where(
          and(
            eq(issues.companyId, companyId),
            isNull(issues.hiddenAt),
            notInArray(issues.originKind, ['routine_execution']),
            chosenFilter,
          ),
        )
        .orderBy(asc(issues.number))
        .limit(EXPORT_CAPS.issues + 1),
      'issues',
    );
    const issueSlug = new Map(
      rows.map((i) => [i.id, uniqueSlug(slugify(i.title, i.identifier.toLowerCase()), taskTaken)]),
    );
    const exportedIssues = new Set(issueSlug.values());
    const ids = rows.map((i) => i.id);
    const docs =
      ids.length === 0
        ? []
        : await tx
            .select({
              issueId: issueDocuments.issueId,
              key: issueDocuments.key,
              title: issueDocuments.title,
              format: issueDocuments.format,
              body: issueDocumentRevisions.body,
            })
            .from(issueDocuments)
            .innerJoin(issueDocumentRevisions, eq(issueDocumentRevisions.id, issueDocuments.latestRevisionId))
            .where(inArray(issueDocuments.issueId, ids))
            .orderBy(asc(issueDocuments.key));
    const files =
      ids.length === 0
        ? []
        : await tx
            .select({
              issueId: issueAttachments.issueId,
              sha256: assets.sha256,
              contentType: assets.contentType,
              name: assets.originalName,
            })
            .from(issueAttachments)
            .innerJoin(assets, eq(assets.id, issueAttachments.assetId))
            .where(inArray(issueAttachments.issueId, ids))
            .orderBy(asc(issueAttachments.createdAt), asc(assets.sha256));
    const blobs = new Map<string, BlobModel>();
    for (const f of files) if (!blobs.has(f.sha256)) blobs.set(f.sha256, await readBlob(f.sha256, f.contentType));
    model.blobs = [...blobs.values()];
    for (const i of rows) {
      const issue: IssueModel = {
        slug: entryOf(issueSlug, i.id, 'task slug'),
        title: i.title,
        description: i.description,
        status: i.status,
        priority: i.priority,
        project: ref(projectSlug, exportedProjects, i.projectId, 'issue project'),
        goal: ref(goalSlug, exportedGoals, i.goalId, 'issue goal'),
        parent: ref(issueSlug, exportedIssues, i.parentId, 'parent issue'),
        assignee: ref(agentSlug, exportedAgents, i.assigneeAgentId, 'issue assignee'),
        billingCode: i.billingCode,
        documents: docs
          .filter((d) => d.issueId === i.id)
          .map((d) => ({ key: d.key, title: d.title, format: d.format, body: d.body })),
        attachments: files
          .filter((f) => f.issueId === i.id)
          .map((f) => ({ sha256: f.sha256, contentType: f.contentType, name: f.name })),
      };
      model.issues.push(issue);
      sourceIds.issues[i.id] = issue.slug;
    }
  }

  if (include.routines) {
    const rows = capped(
      await tx
        .select()
        .from(routines)
        .where(and(eq(routines.companyId, companyId), ne(routines.status, 'archived')))
        .orderBy(asc(routines.title), asc(routines.createdAt), asc(routines.id))
        .limit(EXPORT_CAPS.routines + 1),
      'routines',
    );
    const triggers =
      rows.length === 0
        ? []
        : await tx
            .select()
            .from(routineTriggers)
            .where(
              inArray(
                routineTriggers.routineId,
                rows.map((r) => r.id),
              ),
            )
            .orderBy(
              asc(routineTriggers.createdAt),
              asc(routineTriggers.kind),
              asc(routineTriggers.label),
              asc(routineTriggers.id),
            )
            .limit(10_000);
    for (const r of rows) {
      const slug = uniqueSlug(slugify(r.title, 'routine'), taskTaken);
      sourceIds.routines[r.id] = slug;
      model.routines.push({
        slug,
        title: r.title,
        description: r.description,
        assignee: ref(agentSlug, exportedAgents, r.assigneeAgentId, 'routine assignee'),
        project: ref(projectSlug, exportedProjects, r.projectId, 'routine project'),
        goal: ref(goalSlug, exportedGoals, r.goalId, 'routine goal'),
        priority: r.priority,
        concurrencyPolicy: r.concurrencyPolicy,
        catchUpPolicy: r.catchUpPolicy,
        variables: r.variables,
        // A webhook's public id and secret belong to this instance: the importer gets new ones.
        triggers: triggers
          .filter((t) => t.routineId === r.id)
          .map((t) => ({
            kind: t.kind as 'schedule' | 'webhook' | 'api',
            label: t.label,
            cronExpression: t.cronExpression,
            timezone: t.timezone,
            signingMode: t.signingMode,
            replayWindowSec: t.replayWindowSec,
          })),
      });
    }
  }

  if (include.skills) {
    const rows = capped(
      await tx
        .select()
        .from(companySkills)
        // Bundled skills ship with every instance: their keys are kept on agents, their files are not copied.
        .where(
          and(
            eq(companySkills.companyId, companyId),
            ne(companySkills.sourceKind, 'service_bundled'),
            selected(opts.skills, companySkills.id, [companySkills.slug, companySkills.key]),
          ),
        )
        .orderBy(asc(companySkills.key))
        .limit(EXPORT_CAPS.skills + 1),
      'skills',
    );
    const skillFiles =
      rows.length === 0
        ? []
        : await tx
            .select()
            .from(companySkillFiles)
            .where(
              inArray(
                companySkillFiles.skillId,
                rows.map((s) => s.id),
              ),
            )
            .orderBy(asc(companySkillFiles.path))
            .limit(100_000);
    const taken = new Set<string>();
    for (const s of rows) {
      const slug = uniqueSlug(s.slug, taken);
      sourceIds.skills[s.id] = slug;
      model.skills.push({
        slug,
        key: s.key,
        sourceKind: s.sourceKind,
        files: skillFiles
          .filter((f) => f.skillId === s.id)
          .map((f) => ({ path: f.path, encoding: f.encoding === 'base64' ? 'base64' : 'utf8', content: f.content })),
      });
    }
  }

  if (dropped.size > 0)
    warnings.push(`references to records left out of the export were dropped (${[...dropped].sort().join(', ')})`);
  model.envInputs = [...inputs.values()];
  return { model, warnings, systemDependent, sourceIds };
}

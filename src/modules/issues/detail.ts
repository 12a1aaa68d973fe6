// GET /api/issues/{issueId}: the issue with its related objects (SPEC "Issue detail response adds").
//
// Definitions where SPEC leaves the shape open:
// - goal: the issue's own goal, else its project's goal, else (no project) the company default goal.
//   Each ancestor's goal is resolved the same way.
// - ancestors: parent first, up to the root, at most MAX_ANCESTORS deep.
// - legacyPlanDocument: only when there is no `plan` document; the body of a `<plan>...</plan>`
//   block in the description, else of a heading section titled "Plan" (`# Plan` to `### Plan`, up to
//   the next heading of the same or a higher level): `{ body, source: 'description' }`, else null.
// - mentionedProjects: projects of the company named in the description as `#<urlKey>` or as a
//   `project://<projectId>` link, at most MAX_MENTIONED_PROJECTS.
// - currentExecutionWorkspace: the issue's isolated execution workspace (git worktree) when there is
//   one, else the project workspace named by executionWorkspaceId.
// - workProducts: the isolated workspace's branch snapshot (modules/execution-workspaces), else [].
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  executionWorkspaces,
  goals,
  issueDocuments,
  issueRelations,
  issues,
  projects,
  projectWorkspaces,
} from '../../db/schema/index.ts';
import { presentIsolatedWorkspace, presentWorkProducts } from '../execution-workspaces/present.ts';
import { findDocument } from '../documents/service.ts';
import { presentDocument } from '../documents/present.ts';
import { presentGoalSummary } from '../goals/present.ts';
import { defaultCompanyGoal } from '../goals/service.ts';
import { presentProjectSummary, presentWorkspace, withRuntimeServices } from '../projects/present.ts';
import type { Goal, Issue, Project } from '../../db/rows.ts';
import { presentIssue, presentIssueSummary, type IssueDetailResponse, type IssueLineageResponse } from './present.ts';

const MAX_ANCESTORS = 50;
const MAX_RELATED = 200;
const MAX_DOCUMENT_SUMMARIES = 100; // an issue holds at most 100 documents
const MAX_MENTIONED_PROJECTS = 50;

type Located = Pick<Issue, 'companyId' | 'projectId' | 'goalId'>;

/** Projects and goals of a set of issues, loaded in two queries, and the goal each issue resolves to. */
async function projectsAndGoals(db: DbOrTx, companyId: string, located: Located[]) {
  const projectIds = [...new Set(located.map((i) => i.projectId).filter((id): id is string => !!id))];
  const projectRows =
    projectIds.length > 0 ? await db.select().from(projects).where(inArray(projects.id, projectIds)) : [];
  const projectById = new Map(projectRows.map((p) => [p.id, p]));
  const goalIds = new Set<string>();
  for (const i of located) {
    const goalId = i.goalId ?? (i.projectId ? projectById.get(i.projectId)?.goalId : null);
    if (goalId) goalIds.add(goalId);
  }
  const goalRows =
    goalIds.size > 0
      ? await db
          .select()
          .from(goals)
          .where(inArray(goals.id, [...goalIds]))
      : [];
  const goalById = new Map(goalRows.map((g) => [g.id, g]));
  let companyGoal: Goal | null | undefined;
  const goalOf = async (i: Located): Promise<Goal | null> => {
    if (i.goalId) return goalById.get(i.goalId) ?? null;
    if (i.projectId) {
      const projectGoalId = projectById.get(i.projectId)?.goalId;
      return projectGoalId ? (goalById.get(projectGoalId) ?? null) : null;
    }
    if (companyGoal === undefined) companyGoal = await defaultCompanyGoal(db, companyId);
    return companyGoal;
  };
  const projectOf = (i: Located): Project | null => (i.projectId ? (projectById.get(i.projectId) ?? null) : null);
  return { goalOf, projectOf };
}

async function ancestorsOf(db: DbOrTx, issue: Issue): Promise<Issue[]> {
  if (!issue.parentId) return [];
  const chain = await db.execute<{ id: string; depth: number }>(sql`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 1 from ${issues} where id = ${issue.parentId}
      union all
      select i.id, i.parent_id, c.depth + 1 from ${issues} i join chain c on i.id = c.parent_id where c.depth < ${MAX_ANCESTORS}
    )
    select id, depth from chain`);
  const ids = chain.rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const rows = await db.select().from(issues).where(inArray(issues.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is Issue => r !== undefined);
}

async function relatedIssues(db: DbOrTx, issueId: string, direction: 'blockedBy' | 'blocks'): Promise<Issue[]> {
  const [mine, other] =
    direction === 'blockedBy'
      ? [issueRelations.issueId, issueRelations.blockedByIssueId]
      : [issueRelations.blockedByIssueId, issueRelations.issueId];
  const rows = await db
    .select({ issue: issues })
    .from(issueRelations)
    .innerJoin(issues, eq(issues.id, other))
    .where(eq(mine, issueId))
    .orderBy(asc(issues.number))
    .limit(MAX_RELATED);
  return rows.map((r) => r.issue);
}

export function legacyPlanOf(description: string | null): { body: string; source: 'description' } | null {
  if (!description) return null;
  const tagged = /<plan>([\s\S]*?)<\/plan>/i.exec(description)?.[1];
  if (tagged !== undefined) return tagged.trim() ? { body: tagged.trim(), source: 'description' } : null;
  const heading = /^(#{1,3})[ \t]+plan[ \t]*#*[ \t]*$/im.exec(description);
  const hashes = heading?.[1];
  if (!heading || !hashes) return null;
  const rest = description.slice(heading.index + heading[0].length);
  const next = new RegExp(`^#{1,${hashes.length}}[ \\t]`, 'm').exec(rest);
  const body = (next ? rest.slice(0, next.index) : rest).trim();
  return body ? { body, source: 'description' } : null;
}

export function projectMentionsOf(description: string | null): { keys: string[]; ids: string[] } {
  if (!description) return { keys: [], ids: [] };
  const keys = [...description.matchAll(/(?:^|[^\w&/#])#([a-z0-9][a-z0-9-]{0,79})\b/gim)].flatMap(
    (m) => m[1]?.toLowerCase() ?? [],
  );
  const ids = [
    ...description.matchAll(/project:\/\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi),
  ].flatMap((m) => m[1]?.toLowerCase() ?? []);
  return {
    keys: [...new Set(keys)].slice(0, MAX_MENTIONED_PROJECTS),
    ids: [...new Set(ids)].slice(0, MAX_MENTIONED_PROJECTS),
  };
}

async function mentionedProjectsOf(db: DbOrTx, issue: Issue): Promise<Project[]> {
  const { keys, ids } = projectMentionsOf(issue.description);
  if (keys.length === 0 && ids.length === 0) return [];
  return db
    .select()
    .from(projects)
    .where(
      and(
        eq(projects.companyId, issue.companyId),
        or(
          keys.length > 0 ? inArray(projects.urlKey, keys) : undefined,
          ids.length > 0 ? inArray(projects.id, ids) : undefined,
        ),
      ),
    )
    .orderBy(asc(projects.name))
    .limit(MAX_MENTIONED_PROJECTS);
}

/**
 * Where an issue sits: its project and goal summaries and its ancestors (each with its own project
 * and goal). Shared by the detail and the heartbeat context so both always agree.
 */
export async function issueLineage(db: DbOrTx, issue: Issue): Promise<IssueLineageResponse> {
  const ancestors = await ancestorsOf(db, issue);
  const { goalOf, projectOf } = await projectsAndGoals(db, issue.companyId, [issue, ...ancestors]);
  const goalSummary = async (i: Located) => {
    const goal = await goalOf(i);
    return goal ? presentGoalSummary(goal) : null;
  };
  const projectSummary = (i: Located) => {
    const project = projectOf(i);
    return project ? presentProjectSummary(project) : null;
  };
  return {
    project: projectSummary(issue),
    goal: await goalSummary(issue),
    ancestors: await Promise.all(
      ancestors.map(async (a) => ({
        ...presentIssueSummary(a),
        project: projectSummary(a),
        goal: await goalSummary(a),
      })),
    ),
  };
}

export async function issueDetail(db: DbOrTx, issue: Issue): Promise<IssueDetailResponse> {
  const [lineage, blockedBy, blocks, planDocument, documentSummaries, mentioned, workspace, [isolated]] =
    await Promise.all([
      issueLineage(db, issue),
      relatedIssues(db, issue.id, 'blockedBy'),
      relatedIssues(db, issue.id, 'blocks'),
      findDocument(db, issue.id, 'plan'),
      db
        .select({
          id: issueDocuments.id,
          key: issueDocuments.key,
          title: issueDocuments.title,
          latestRevisionNumber: issueDocuments.latestRevisionNumber,
          updatedAt: issueDocuments.updatedAt,
        })
        .from(issueDocuments)
        .where(eq(issueDocuments.issueId, issue.id))
        .orderBy(asc(issueDocuments.key))
        .limit(MAX_DOCUMENT_SUMMARIES),
      mentionedProjectsOf(db, issue),
      issue.executionWorkspaceId
        ? db
            .select()
            .from(projectWorkspaces)
            .where(eq(projectWorkspaces.id, issue.executionWorkspaceId))
            .then((rows) => withRuntimeServices(db, rows))
        : Promise.resolve([]),
      db.select().from(executionWorkspaces).where(eq(executionWorkspaces.issueId, issue.id)),
    ]);
  return {
    ...presentIssue(issue),
    project: lineage.project,
    goal: lineage.goal,
    ancestors: lineage.ancestors,
    blockedBy: blockedBy.map(presentIssueSummary),
    blocks: blocks.map(presentIssueSummary),
    planDocument: planDocument ? presentDocument(planDocument) : null,
    documentSummaries,
    legacyPlanDocument: planDocument ? null : legacyPlanOf(issue.description),
    mentionedProjects: mentioned.map(presentProjectSummary),
    currentExecutionWorkspace: isolated
      ? presentIsolatedWorkspace(isolated)
      : workspace[0]
        ? presentWorkspace(workspace[0])
        : null,
    workProducts: presentWorkProducts(isolated),
  };
}

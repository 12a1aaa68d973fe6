// The issue side of the company boundary, borrowed by every area that names an issue: the issue a
// path names (404 missing, 403 another company's), and ids named in a body, which must belong to
// the company being written (422 otherwise; a missing id and another company's answer the same, so
// callers learn nothing about other companies).
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import type { Issue } from '../db/rows.ts';
import { agents, issues, projects, projectWorkspaces } from '../db/schema/index.ts';
import { isUuid } from '../lib/ids.ts';
import { requireAccessible } from './access.ts';
import type { Actor } from './actor.ts';
import { unprocessable } from './errors.ts';
import { assertGoalsInCompany } from './goal-access.ts';

const ISSUE_IDENTIFIER = /^[A-Z][A-Z0-9]*-[1-9][0-9]*$/;

/** The issue, or null. Identifiers are resolved first, as SPEC says, then UUIDs. */
export async function findIssue(db: DbOrTx, idOrIdentifier: string): Promise<Issue | null> {
  const key = idOrIdentifier.trim();
  if (ISSUE_IDENTIFIER.test(key.toUpperCase())) {
    const [byIdentifier] = await db.select().from(issues).where(eq(issues.identifier, key.toUpperCase()));
    if (byIdentifier) return byIdentifier;
  }
  if (!isUuid(key)) return null;
  const [byId] = await db.select().from(issues).where(eq(issues.id, key));
  return byId ?? null;
}

/** The issue named in a path: 404 when missing, 403 when it belongs to another company. */
export async function requireIssueAccess(db: DbOrTx, actor: Actor, idOrIdentifier: string): Promise<Issue> {
  return requireAccessible(db, actor, await findIssue(db, idOrIdentifier), 'issue');
}

/** Agents in these states cannot work, so nothing may be assigned to them. */
const UNASSIGNABLE_AGENT_STATUSES = ['terminated', 'pending_approval'];

interface IssueRefs {
  projectId?: string | null;
  goalId?: string | null;
  executionWorkspaceId?: string | null;
  assigneeAgentId?: string | null;
}

export async function assertIssueRefsInCompany(tx: DbOrTx, companyId: string, refs: IssueRefs): Promise<void> {
  if (refs.projectId) {
    const [row] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.id, refs.projectId), eq(projects.companyId, companyId)));
    if (!row) throw unprocessable('projectId must name a project of the same company', { projectId: refs.projectId });
  }
  if (refs.goalId) await assertGoalsInCompany(tx, companyId, [refs.goalId], 'goalId');
  if (refs.executionWorkspaceId) {
    const [row] = await tx
      .select({ id: projectWorkspaces.id })
      .from(projectWorkspaces)
      .where(and(eq(projectWorkspaces.id, refs.executionWorkspaceId), eq(projectWorkspaces.companyId, companyId)));
    if (!row)
      throw unprocessable('executionWorkspaceId must name a workspace of the same company', {
        executionWorkspaceId: refs.executionWorkspaceId,
      });
  }
  if (refs.assigneeAgentId) {
    const [agent] = await tx
      .select({ status: agents.status })
      .from(agents)
      .where(and(eq(agents.id, refs.assigneeAgentId), eq(agents.companyId, companyId)));
    if (!agent)
      throw unprocessable('assigneeAgentId must name an agent of the same company', {
        assigneeAgentId: refs.assigneeAgentId,
      });
    if (UNASSIGNABLE_AGENT_STATUSES.includes(agent.status)) {
      throw unprocessable(`cannot assign an issue to an agent that is ${agent.status}`, {
        assigneeAgentId: refs.assigneeAgentId,
      });
    }
  }
}

/** Another issue of the same company (422 otherwise). */
export async function requireSiblingIssue(
  tx: DbOrTx,
  companyId: string,
  issueId: string,
  field: string,
): Promise<Issue> {
  const [row] = await tx
    .select()
    .from(issues)
    .where(and(eq(issues.id, issueId), eq(issues.companyId, companyId)));
  if (!row) throw unprocessable(`${field} must name an issue of the same company`, { [field]: issueId });
  return row;
}

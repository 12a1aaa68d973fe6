// The host calls over the company's records (PLUGINS-CONTRACT.md, "Host calls"): each asks the
// permission table as the plugin actor (its grant, intersected with its cause) and then calls the
// service the route calls, answering what the route answers. A record of another company is "not
// found": for a plugin, other companies do not exist, whatever id or companyId it sends.
import { z } from 'zod';
import { requireAccessible } from '../../core/access.ts';
import { findAgent } from '../../core/agent-access.ts';
import { findIssue } from '../../core/issue-access.ts';
import { assertMay } from '../../core/permissions.ts';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from '../../core/statuses.ts';
import type { Issue } from '../../db/rows.ts';
import { presentActivity } from '../../modules/activity/present.ts';
import { listActivityQuery } from '../../modules/activity/schemas.ts';
import { listActivity } from '../../modules/activity/service.ts';
import { listLiveAgents } from '../../modules/agents/lookup.ts';
import { presentAgent, presentWakeup } from '../../modules/agents/present.ts';
import { wakeupBody } from '../../modules/agents/schemas.ts';
import { agentViews } from '../../modules/agents/views.ts';
import { requestWakeup } from '../../modules/agents/wakeup.ts';
import { monthlyBudgetOf } from '../../modules/budgets/budget-policies.ts';
import { budgetOverview } from '../../modules/budgets/overview.ts';
import { presentComment } from '../../modules/comments/present.ts';
import { createCommentBody, listCommentsQuery } from '../../modules/comments/schemas.ts';
import { createComment, listComments } from '../../modules/comments/service.ts';
import { costBreakdown, spendOf } from '../../modules/costs/summaries.ts';
import { presentDocument } from '../../modules/documents/present.ts';
import { documentKey, putDocumentBody } from '../../modules/documents/schemas.ts';
import { getDocument, putDocument } from '../../modules/documents/service.ts';
import { presentGoal } from '../../modules/goals/present.ts';
import { listLimitQuery } from '../../modules/goals/schemas.ts';
import { listGoals } from '../../modules/goals/service.ts';
import { issueDetail } from '../../modules/issues/detail.ts';
import { listIssues } from '../../modules/issues/list.ts';
import { presentIssue } from '../../modules/issues/present.ts';
import { createIssueBody, listIssuesQuery, patchIssueBody } from '../../modules/issues/schemas.ts';
import { createIssue } from '../../modules/issues/service.ts';
import { updateIssue } from '../../modules/issues/update.ts';
import { presentProjects } from '../../modules/projects/present.ts';
import { listProjects } from '../../modules/projects/service.ts';
import { listRoutinesQuery } from '../../modules/routines/schemas.ts';
import { listRoutines } from '../../modules/routines/read.ts';
import { type CallScope, type HostCall, hostCall } from './call.ts';

const ref = z.string().trim().min(1).max(200);

/** The issue a call names, in the slot's company (404 otherwise, as if it did not exist). */
async function issueOf(scope: CallScope, issueId: string): Promise<Issue> {
  return requireAccessible(scope.db, scope.actor, await findIssue(scope.db, issueId), 'issue', {
    outside: 'not_found',
  });
}

async function agentOf(scope: CallScope, agentId: string) {
  return requireAccessible(scope.db, scope.actor, await findAgent(scope.db, scope.actor, agentId), 'agent', {
    outside: 'not_found',
  });
}

type ReadAction =
  | 'issue.read'
  | 'comment.read'
  | 'document.read'
  | 'project.read'
  | 'agent.read'
  | 'goal.read'
  | 'routine.read'
  | 'activity.read'
  | 'cost.read';

/** A read's row of the permission table: the capability, intersected with the cause. */
const reads = (scope: CallScope, action: ReadAction) => assertMay(scope.ctx, action, { companyId: scope.companyId });

/** This UTC calendar month, the range `costs.summary` sums (the budgets are monthly). */
function thisMonth(now = new Date()) {
  return {
    from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

export const CAPABILITY_CALLS: Record<string, HostCall> = {
  'issues.list': hostCall(
    'issues.read',
    z.object({
      status: z.string().max(200).optional(),
      assigneeAgentId: z.uuid().optional(),
      projectId: z.uuid().optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    async (scope, p) => {
      await reads(scope, 'issue.read');
      const page = await listIssues(scope.ctx, scope.companyId, listIssuesQuery.parse(p));
      return page.issues.map(presentIssue);
    },
  ),
  'issues.get': hostCall('issues.read', z.object({ issueId: ref }), async (scope, p) => {
    const issue = await issueOf(scope, p.issueId);
    await reads(scope, 'issue.read');
    return issueDetail(scope.db, issue);
  }),
  'issues.create': hostCall(
    'issues.write',
    z.object({
      title: z.string(),
      description: z.string().optional(),
      projectId: z.uuid().optional(),
      priority: z.enum(ISSUE_PRIORITIES).optional(),
      labelIds: z.array(z.uuid()).optional(),
    }),
    async (scope, p) => presentIssue(await createIssue(scope.ctx, scope.companyId, createIssueBody.parse(p))),
  ),
  // Never status or assignee: those are `issues.status` and no capability at all.
  'issues.update': hostCall(
    'issues.write',
    z.object({
      issueId: ref,
      title: z.string().optional(),
      description: z.string().nullable().optional(),
      priority: z.enum(ISSUE_PRIORITIES).optional(),
    }),
    async (scope, { issueId, ...patch }) => {
      const issue = await issueOf(scope, issueId);
      return presentIssue(await updateIssue(scope.ctx, issue.id, patchIssueBody.parse(patch)));
    },
  ),
  'issues.setStatus': hostCall(
    'issues.status',
    z.object({ issueId: ref, status: z.enum(ISSUE_STATUSES) }),
    async (scope, p) => {
      const issue = await issueOf(scope, p.issueId);
      return presentIssue(await updateIssue(scope.ctx, issue.id, patchIssueBody.parse({ status: p.status })));
    },
  ),
  'comments.list': hostCall('comments.read', z.object({ issueId: ref }), async (scope, p) => {
    const issue = await issueOf(scope, p.issueId);
    await reads(scope, 'comment.read');
    return (await listComments(scope.db, issue.id, listCommentsQuery.parse({}))).map(presentComment);
  }),
  // The comment service wakes nobody for a plugin's mentions (comments/service.ts).
  'comments.create': hostCall('comments.write', z.object({ issueId: ref, body: z.string() }), async (scope, p) => {
    const issue = await issueOf(scope, p.issueId);
    return presentComment(await createComment(scope.ctx, issue, createCommentBody.parse({ body: p.body })));
  }),
  'documents.get': hostCall('documents.read', z.object({ issueId: ref, key: documentKey }), async (scope, p) => {
    const issue = await issueOf(scope, p.issueId);
    await reads(scope, 'document.read');
    return presentDocument(await getDocument(scope.db, issue.id, p.key));
  }),
  'documents.put': hostCall(
    'documents.write',
    z.object({ issueId: ref, key: documentKey, title: z.string().nullable().optional(), body: z.string() }),
    async (scope, { issueId, key, ...body }) => {
      const issue = await issueOf(scope, issueId);
      const { document } = await putDocument(scope.ctx, issue, key, putDocumentBody.parse(body));
      return presentDocument(document);
    },
  ),
  'projects.list': hostCall('projects.read', z.object({}), async (scope) => {
    await reads(scope, 'project.read');
    return presentProjects(scope.db, await listProjects(scope.db, scope.companyId, listLimitQuery.parse({}).limit));
  }),
  'agents.list': hostCall('agents.read', z.object({}), async (scope) => {
    await reads(scope, 'agent.read');
    const views = await agentViews(scope.ctx, await listLiveAgents(scope.db, scope.companyId));
    return views.map((view) => presentAgent(view.agent, view));
  }),
  'agents.get': hostCall('agents.read', z.object({ agentId: ref }), async (scope, p) => {
    const agent = await agentOf(scope, p.agentId);
    await reads(scope, 'agent.read');
    const [view] = await agentViews(scope.ctx, [agent]);
    return view ? presentAgent(view.agent, view) : null;
  }),
  'goals.list': hostCall('goals.read', z.object({}), async (scope) => {
    await reads(scope, 'goal.read');
    return (await listGoals(scope.db, scope.companyId, listLimitQuery.parse({}).limit)).map(presentGoal);
  }),
  'routines.list': hostCall('routines.read', z.object({}), async (scope) => {
    await reads(scope, 'routine.read');
    return listRoutines(scope.db, scope.companyId, listRoutinesQuery.parse({}));
  }),
  'activity.list': hostCall(
    'activity.read',
    z.object({
      limit: z.number().int().min(1).max(1000).optional(),
      before: z.iso.datetime({ offset: true }).optional(),
    }),
    async (scope, p) => {
      await reads(scope, 'activity.read');
      const query = listActivityQuery.parse({ limit: p.limit });
      return (await listActivity(scope.db, scope.companyId, query, p.before ? new Date(p.before) : undefined)).map(
        presentActivity,
      );
    },
  ),
  'costs.summary': hostCall('costs.read', z.object({}), async (scope) => {
    await reads(scope, 'cost.read');
    const range = thisMonth();
    const [usage, budget, byAgent, overview] = await Promise.all([
      spendOf(scope.db, scope.companyId, range),
      monthlyBudgetOf(scope.db, 'company', scope.companyId),
      costBreakdown(scope.db, scope.companyId, 'agent', range),
      budgetOverview(scope.db, scope.companyId),
    ]);
    return {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      spendCents: usage.costCents,
      budgetCents: budget.budgetMonthlyCents,
      byAgent,
      // Every active budget policy (company, agent, project) with what its window observes now.
      policies: overview.policies,
    };
  }),
  // Through the wake service: the budget rules, rate limits and agent statuses apply as to any wake.
  'agents.wake': hostCall(
    'agents.wake',
    z.object({ agentId: ref, reason: z.string().optional(), issueId: z.uuid().optional() }),
    async (scope, p) => {
      const agent = await agentOf(scope, p.agentId);
      const body = wakeupBody.parse({
        source: 'on_demand',
        triggerDetail: 'callback',
        ...(p.reason !== undefined && { reason: p.reason }),
        ...(p.issueId && { payload: { issueId: p.issueId } }),
      });
      const result = await requestWakeup(scope.ctx, agent.id, body);
      return 'skipped' in result ? result : presentWakeup(result);
    },
  ),
};

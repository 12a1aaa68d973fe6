import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, runIdHeader } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { issueActivity } from './activity.ts';
import { issueDetail } from './detail.ts';
import { listIssues } from './list.ts';
import { requireIssueAccess } from '../../core/issue-access.ts';
import { activityResponse } from '../activity/present.ts';
import { issueDetailResponse, issueResponse, presentIssue } from './present.ts';
import {
  createIssueBody,
  DEFAULT_ISSUE_PAGE,
  issueActivityQuery,
  listIssuesQuery,
  MAX_ISSUE_PAGE,
  NEXT_CURSOR_HEADER,
  patchIssueBody,
} from './schemas.ts';
import { createIssue } from './service.ts';
import { updateIssue } from './update.ts';

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const issueParams = z.object({
  issueId: z.string().trim().min(1).max(100).describe('issue UUID or identifier (`ACM-12`)'),
});
const tags = ['issues'];

const ISSUE_ERRORS = () => errors([403, 'the issue belongs to another company'], [404, 'no such issue']);
const REFS_REFUSED =
  'refused by a rule: `in_progress` without checkout; a project, goal, workspace, parent, blocker or assignee that is not of this company; an assignee agent that is terminated or pending_approval; a parent or blocker cycle';

export function registerIssueRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/companies/:companyId/issues',
    {
      schema: {
        tags,
        summary: "List a company's issues",
        description: [
          'Issues of the company, filtered by the query; ordered by priority (critical first), then most recently updated, unless `q` is given: then by best match (an exact identifier first, comment matches weigh half).',
          '`q` ranks at most 200 matching issues and 200 matching comments. Hidden issues (`hiddenAt` set) are never listed; routine execution issues only with `includeRoutineExecutions=true` or an `originKind`/`originId` filter.',
          `\`limit\` defaults to ${DEFAULT_ISSUE_PAGE}; larger values are clamped to ${MAX_ISSUE_PAGE}. \`me\` in the user filters works for board callers only (agents get 403).`,
          `Paging (keyset): a full page without \`q\` carries the header \`${NEXT_CURSOR_HEADER}\`; ask again with \`cursor\` set to its value and the same filters for the issues after it in list order (ties on updatedAt go by id, so a walk over unchanged issues gives each exactly once; an issue updated during the walk moves to its new place and may be seen twice or not at all).`,
          'No header: the last page (a page may be full and still the last, the next then being empty). A search is one ranked page: `cursor` with `q` is 400.',
          'Any caller with access to the company.',
        ].join(' '),
        params: companyParams,
        querystring: listIssuesQuery,
        response: {
          200: z
            .array(issueResponse)
            .describe(`The issues, in list order; header \`${NEXT_CURSOR_HEADER}\` when the page is full`),
          ...authenticated(),
          ...errors(
            [400, 'invalid filters, a `cursor` this list did not issue, or `cursor` with `q`'],
            [403, "the company is not one of the caller's, or `me` from an agent"],
            [404, 'no such company'],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const page = await listIssues(contextOf(db, request), company.id, request.query);
      if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.issues.map(presentIssue);
    },
  );

  app.post(
    '/api/companies/:companyId/issues',
    {
      schema: {
        tags,
        summary: 'Create an issue',
        description: [
          'Creates an issue with the next identifier of the company (`<PREFIX>-<n>`). Only `title` is required; `status` defaults to backlog and `priority` to medium.',
          '`in_progress` is reached only through POST /api/issues/{issueId}/checkout (422 here).',
          'Referenced projects, goals, workspaces, parents, blockers and assignees must belong to the company (422).',
          'Setting an assignee needs task-assignment permission: board users always; agents with it granted (canAssignTasks, CEO, canCreateAgents); other agents may only assign the issue to themselves (403 otherwise). An assigned agent is woken unless it assigned itself.',
          'Any caller with access to the company.',
        ].join(' '),
        params: companyParams,
        body: createIssueBody,
        response: {
          201: issueResponse.describe('The issue, created'),
          ...authenticated(),
          ...errors(
            [403, "the company is not one of the caller's, or an assignment without task-assignment permission"],
            [404, 'no such company'],
            [422, REFS_REFUSED],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return reply.status(201).send(presentIssue(await createIssue(contextOf(db, request), company.id, request.body)));
    },
  );

  app.get(
    '/api/issues/:issueId',
    {
      schema: {
        tags,
        summary: 'Get an issue with its related objects',
        description: [
          "The issue plus its project, resolved goal (its own, else its project's, else the company default goal when it has no project), ancestors (parent first, each with project and goal, at most 50),",
          'blockers and blocked issues (at most 200 each), the `plan` document with its body, summaries of all documents, the legacy plan from the description, mentioned projects, the current execution workspace and its work products (for an isolated workspace, its branch: commits ahead and diff stat as of the last run; else empty).',
          "Any caller with access to the issue's company.",
        ].join(' '),
        params: issueParams,
        response: { 200: issueDetailResponse, ...authenticated(), ...ISSUE_ERRORS() },
      },
    },
    async (request) => {
      return issueDetail(db, await requireIssueAccess(db, actorOf(request), request.params.issueId));
    },
  );

  app.patch(
    '/api/issues/:issueId',
    {
      schema: {
        tags,
        summary: 'Update an issue',
        description: [
          'Changes the fields given (any create field, plus `comment`, `reopen`, `interrupt`, `hiddenAt`), in one transaction with the comment, wakeups and activity.',
          'With `comment` a comment is added in the same call; `reopen: true` with a comment moves a done or cancelled issue to todo unless `status` is given; `interrupt` needs a comment (400) and a board caller (403).',
          '`blockedByIssueIds` replaces the blockers (same company, no self-block, no cycles: 422). Moving into `in_progress` is refused (422: use checkout); leaving `in_progress` or changing the assignee agent clears the checkout.',
          "An agent updating an in_progress issue it holds must send the holding run in `X-Service-Run-Id` (409 `run_mismatch` otherwise); another agent's checked-out issue is 409 `owned_by_another_agent`.",
          'Assignment rules as on create (403). A new assignee agent is woken (unless it assigned itself); closing an issue (done or cancelled) wakes the assignees of the open issues whose blockers are then all closed.',
        ].join(' '),
        params: issueParams,
        headers: z.object({ 'x-service-run-id': runIdHeader }),
        body: patchIssueBody,
        response: {
          200: issueResponse.describe('The issue, updated'),
          ...authenticated(),
          ...errors(
            [400, 'invalid input (`details` lists the failing paths), or `interrupt` without `comment`'],
            [
              403,
              'the issue belongs to another company, an assignment without task-assignment permission, or `interrupt` from a caller that is not a board user',
            ],
            [404, 'no such issue'],
            [
              409,
              'the issue is checked out by another agent or run: `details` is `{ reason, currentStatus, holder: { agentId, runId, runStatus, runLive }, retryable: false }`',
            ],
            [422, REFS_REFUSED],
          ),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return presentIssue(await updateIssue(contextOf(db, request), issue.id, request.body));
    },
  );

  app.get(
    '/api/issues/:issueId/activity',
    {
      schema: {
        tags,
        summary: "List an issue's activity",
        description:
          "The issue's activity entries (created, updated, comments, documents, attachments, checkouts...), newest first; `limit` 1 to 500 (default 200). Any caller with access to the issue's company.",
        params: issueParams,
        querystring: issueActivityQuery,
        response: {
          200: z.array(activityResponse).describe('Activity entries, newest first'),
          ...authenticated(),
          ...ISSUE_ERRORS(),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return issueActivity(db, issue, request.query.limit);
    },
  );
}

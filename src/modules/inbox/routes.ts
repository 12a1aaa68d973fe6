// GET /api/agents/me/inbox-lite (agent only) and GET /api/issues/{issueId}/heartbeat-context; the
// board user's inbox routes are in ./board-routes.ts.
// The inbox path sits under /api/agents; fastify's router prefers the static `me` segment over
// the agents area's /api/agents/:agentId, so registration order does not matter.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { requireIssueAccess } from '../../core/issue-access.ts';
import { heartbeatContext } from './heartbeat-context.ts';
import { heartbeatContextResponse, inboxLiteItemResponse, type HeartbeatContextResponse } from './present.ts';
import { INBOX_LITE_LIMIT, inboxLite } from './service.ts';
import { registerBoardInboxRoutes } from './board-routes.ts';

export function registerInboxRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  registerBoardInboxRoutes(app, deps);

  app.get(
    '/api/agents/me/inbox-lite',
    {
      schema: {
        tags: ['agents'],
        summary: "List the calling agent's open assignments",
        description: [
          'Agent only (board callers get 403). The issues assigned to the calling agent that are neither done, cancelled nor hidden, in compact form:',
          `by priority (critical first), then most recently updated; at most ${INBOX_LITE_LIMIT}. Each says whether its blockers are all resolved (\`dependencyReady\`) and which run holds it, if one is in flight.`,
        ].join(' '),
        response: {
          200: z.array(inboxLiteItemResponse).describe('Open assignments, most urgent first'),
          ...authenticated(),
          ...errors([403, 'the caller is not an agent']),
        },
      },
    },
    async (request) => inboxLite(contextOf(db, request)),
  );

  app.get(
    '/api/issues/:issueId/heartbeat-context',
    {
      schema: {
        tags: ['issues'],
        summary: 'Get the compact context an agent needs for an issue',
        description: [
          'What an agent reads when it wakes for an issue, in one call: the issue in brief with its description and checkout state, its ancestors (parent first),',
          'its project and resolved goal (as in the issue detail), a comment cursor to fetch only newer comments, the comment that woke it (`wakeCommentId`), and attachment metadata.',
          "No documents, relations or work products (GET /api/issues/{issueId} has those). Any caller with access to the issue's company.",
        ].join(' '),
        params: z.object({
          issueId: z.string().trim().min(1).max(200).describe('issue UUID or identifier (`ACM-12`)'),
        }),
        querystring: z.object({
          wakeCommentId: z
            .uuid()
            .optional()
            .describe(
              'the comment that woke the agent; returned as `wakeComment` when it belongs to this issue (otherwise `wakeComment` is null)',
            ),
        }),
        response: {
          200: heartbeatContextResponse,
          ...authenticated(),
          ...errors([403, 'the issue belongs to another company'], [404, 'no such issue']),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      const context: HeartbeatContextResponse = await heartbeatContext(db, issue, request.query.wakeCommentId);
      return context;
    },
  );
}

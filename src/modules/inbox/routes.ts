// GET /api/agents/me/inbox-lite (agent only) and GET /api/issues/{issueId}/heartbeat-context.
// The inbox path sits under /api/agents; fastify's router prefers the static `me` segment over
// the agents area's /api/agents/:agentId, so registration order does not matter.
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireAgent } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { requireIssueAccess } from '../issues/lookup.ts';
import { heartbeatContext } from './heartbeat-context.ts';
import { inboxLite } from './service.ts';

export function registerInboxRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get('/api/agents/me/inbox-lite', { schema: { tags: ['agents'] } }, async (request) => inboxLite({ db, actor: requireAgent(actorOf(request)) }));

  app.get(
    '/api/issues/:issueId/heartbeat-context',
    {
      schema: {
        tags: ['issues'],
        params: z.object({ issueId: z.string().trim().min(1).max(200) }),
        querystring: z.object({ wakeCommentId: z.uuid().optional() }),
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return heartbeatContext(db, issue, request.query.wakeCommentId);
    },
  );
}

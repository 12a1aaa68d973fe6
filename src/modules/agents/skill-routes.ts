// An agent's skills: the snapshot, and setting the selection (part of the agent's configuration, so
// the agent's PATCH rule decides who may). The skills themselves are the skills area's.
import type { App, AppDeps } from '../../http/deps.ts';
import { requireAgentAccess } from '../../core/agent-access.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { skillSnapshot, syncAgentSkills } from '../skills/agent-skills.ts';
import { presentSnapshot, snapshotResponse } from '../skills/present.ts';
import { syncBody } from '../skills/schemas.ts';
import { agentParams } from './schemas.ts';

const tags = ['skills'];

export function registerAgentSkillRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/agents/:agentId/skills',
    {
      schema: {
        tags,
        summary: "An agent's skills",
        description:
          'The agent skill snapshot: the attached skills, whether the adapter is handed them (claude_local gets a directory before each run, codex_local a CODEX_HOME with them under skills/; other adapters only store the selection, mode `unsupported`). Any caller with access to the company.',
        params: agentParams,
        response: {
          200: snapshotResponse,
          ...authenticated(),
          ...errors([403, "the agent's company is not one of the caller's"], [404, 'no such agent']),
        },
      },
    },
    async (request) =>
      presentSnapshot(await skillSnapshot(db, await requireAgentAccess(db, actorOf(request), request.params.agentId))),
  );

  app.post(
    '/api/agents/:agentId/skills/sync',
    {
      schema: {
        tags,
        summary: "Set an agent's skills",
        description: [
          'The attachments become exactly `desiredSkills` (each a skill id, a canonical key, or a slug unique in the company) plus every required bundled skill, which is always kept.',
          'Any unknown or ambiguous reference fails the whole request with 422 (`details.unknown`, `details.ambiguous`) and changes nothing.',
          'The board, the company CEO agent, or the agent itself (as for PATCH of the agent).',
        ].join(' '),
        params: agentParams,
        body: syncBody,
        response: {
          200: snapshotResponse,
          ...authenticated(),
          ...errors(
            [403, 'another company, or not the board, the CEO agent or the agent itself'],
            [404, 'no such agent'],
            [422, 'unknown or ambiguous skill references'],
          ),
        },
      },
    },
    async (request) => {
      const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
      await syncAgentSkills(contextOf(db, request), agent, request.body.desiredSkills);
      return presentSnapshot(await skillSnapshot(db, agent));
    },
  );
}

import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, uuidOut, type ErrorStatus } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { hireAgent } from './hires.ts';
import { createKey, listKeys, revokeKey } from './keys.ts';
import { deleteAgent, pauseAgent, resumeAgent, terminateAgent } from './lifecycle.ts';
import { requireAgentAccess, taskAccess } from '../../core/agent-access.ts';
import { chainOfCommand, listLiveAgents } from './lookup.ts';
import { presentApproval } from '../approvals/present.ts';
import type { Agent } from '../../db/rows.ts';
import {
  agentDetailResponse,
  agentHireResponse,
  agentKeyResponse,
  agentResponse,
  createdAgentKeyResponse,
  presentAgent,
  presentChainLink,
  presentKey,
  presentWakeup,
  skippedWakeupResponse,
  wakeupResponse,
  type AgentDetailResponse,
} from './present.ts';
import { budgetBody } from '../budgets/schemas.ts';
import {
  agentLookupQuery,
  agentParams,
  companyParams,
  createAgentBody,
  createKeyBody,
  hireAgentBody,
  keyParams,
  patchAgentBody,
  permissionsBody,
  wakeupBody,
} from './schemas.ts';
import { createAgent, selfAgent, updateAgent, updateBudget, updatePermissions } from './service.ts';
import { agentView, agentViews } from './views.ts';
import { requestWakeup } from './wakeup.ts';

const tags = ['agents'];

const COMPANY_ERRORS: [ErrorStatus, string][] = [
  [403, "the company is not one of the caller's"],
  [404, 'no such company'],
];
const AGENT_NOT_FOUND: [ErrorStatus, string] = [404, 'no such agent (a shortname names live agents only)'];
const ANOTHER_COMPANY = 'the agent belongs to another company';
const REDACTED_VIEW =
  'Configuration (`adapterConfig`, `runtimeConfig`) is shown in full to the board, the agent itself, the company CEO agent and agents with `permissions.canCreateAgents`; other callers get it redacted (`configRedacted: true`), never a 403.';
const BOARD_OR_CEO = 'The board or the company CEO agent (`role: "ceo"`); other agents 403.';

const LIFECYCLE = {
  pause: {
    run: pauseAgent,
    summary: 'Pause an agent',
    description:
      'Any live agent becomes `paused` (`pauseReason: "manual"`); a paused agent takes no checkout and no wakeup. Pausing a paused agent changes nothing. A terminated or pending_approval agent is 409 (pausing and resuming must not activate an unapproved hire).',
    result: 'The agent, paused',
    conflict: 'the agent is terminated or pending_approval',
  },
  resume: {
    run: resumeAgent,
    summary: 'Resume a paused agent',
    description:
      'A `paused` agent becomes `idle` and its `pauseReason` is cleared; an agent that is not paused is answered as it is. A terminated or pending_approval agent is 409.',
    result: 'The agent, resumed (or unchanged)',
    conflict: 'the agent is terminated or pending_approval',
  },
  terminate: {
    run: terminateAgent,
    summary: 'Terminate an agent',
    description:
      'The agent becomes `terminated` for good and every API key of it is revoked; the record is kept (fetchable by UUID, hidden from lists, its shortname freed). Terminating again changes nothing.',
    result: 'The agent, terminated',
    conflict: null,
  },
} as const;

export function registerAgentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  /** The agent as this caller may see it (redacted when it may not read configuration). */
  const view = async (request: FastifyRequest, agent: Agent) =>
    presentAgent(agent, await agentView(contextOf(db, request), agent));
  const detail = async (request: FastifyRequest, agent: Agent): Promise<AgentDetailResponse> => ({
    ...(await view(request, agent)),
    chainOfCommand: (await chainOfCommand(db, agent)).map(presentChainLink),
    access: taskAccess(agent),
  });

  app.get(
    '/api/companies/:companyId/agents',
    {
      schema: {
        tags,
        summary: "List a company's agents",
        description: `The company's agents except terminated ones, oldest first (at most 1000). Any caller with access to the company. ${REDACTED_VIEW}`,
        params: companyParams,
        response: {
          200: z.array(agentResponse).describe('The live agents, oldest first'),
          ...authenticated(),
          ...errors(...COMPANY_ERRORS),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const rows = await listLiveAgents(db, company.id);
      return (await agentViews(contextOf(db, request), rows)).map((view) => presentAgent(view.agent, view));
    },
  );

  app.post(
    '/api/companies/:companyId/agents',
    {
      schema: {
        tags,
        summary: 'Create an agent',
        description: [
          'Board only (agents hire through POST /api/companies/{companyId}/agent-hires). The agent starts `idle` with timer heartbeats disabled unless `runtimeConfig.heartbeat.enabled` is given.',
          'A name already used by a live agent gets a numeric suffix ("Ada 2"); the shortname `urlKey` is derived from it.',
          '`reportsTo` must be a non-terminated agent of the company and secret references in `adapterConfig` must name secrets of the company (422).',
          '`desiredSkills` attaches skills in the same transaction, exactly as POST /api/agents/{agentId}/skills/sync does (plus the required bundled skills); an unknown or ambiguous reference is 422 and no agent is created.',
          "A positive `budgetMonthlyCents` creates the agent's monthly budget policy.",
        ].join(' '),
        params: companyParams,
        body: createAgentBody,
        response: {
          201: agentResponse.describe('The agent, created idle'),
          ...authenticated(),
          ...errors(
            [403, "board access required, or the company is not one of the caller's"],
            [404, 'no such company'],
            [409, 'too many agents of the company share this name'],
            [
              422,
              'reportsTo is not a live agent of the company, a secret reference names a secret of another company, or a `desiredSkills` reference is unknown or ambiguous',
            ],
          ),
        },
      },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(await view(request, await createAgent(contextOf(db, request), request.params.companyId, request.body)));
    },
  );

  app.post(
    '/api/companies/:companyId/agent-hires',
    {
      schema: {
        tags,
        summary: 'Hire an agent',
        description: [
          'The board, the company CEO agent, or an agent of the company with `permissions.canCreateAgents` (others 403). Takes the create fields plus the issues that motivated the hire.',
          'When the company sets `requireBoardApprovalForNewAgents`, the agent is created as a `pending_approval` draft (no keys, no work) with a `hire_agent` approval carrying its configuration snapshot and linked to the source issues; approving it activates the agent, rejecting it terminates the draft.',
          'Otherwise the agent is created `idle` and `approval` is null. Source issues must exist (404) and belong to the company (422); the other rules are those of agent create.',
        ].join(' '),
        params: companyParams,
        body: hireAgentBody,
        response: {
          201: agentHireResponse,
          ...authenticated(),
          ...errors(
            [
              403,
              'the caller may not hire (not the board, the CEO agent or an agent with canCreateAgents), or another company',
            ],
            [404, 'no such company, or a source issue does not exist'],
            [409, 'too many agents of the company share this name'],
            [
              422,
              'a source issue belongs to another company, reportsTo is not a live agent of the company, a secret reference is of another company, or a `desiredSkills` reference is unknown or ambiguous',
            ],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const { agent, approval } = await hireAgent(contextOf(db, request), company, request.body);
      return reply
        .status(201)
        .send({ agent: await view(request, agent), approval: approval ? presentApproval(approval) : null });
    },
  );

  app.get(
    '/api/agents/me',
    {
      schema: {
        tags,
        summary: 'Get the calling agent',
        description:
          "The authenticated agent's own record in full, with its chain of command and task-assignment access. Agent callers only (board 403).",
        response: {
          200: agentDetailResponse.describe('The calling agent with its chain of command and access'),
          ...authenticated(),
          ...errors([403, 'agent authentication required'], [404, 'the agent no longer exists']),
        },
      },
    },
    async (request) => {
      return detail(request, await selfAgent(contextOf(db, request)));
    },
  );

  app.get(
    '/api/agents/:agentId',
    {
      schema: {
        tags,
        summary: 'Get an agent',
        description: [
          "By UUID (terminated agents included) or by shortname among the live agents of `companyId`; an agent caller's shortname lookups default to its own company, a board caller's need `companyId` (400).",
          `Adds \`chainOfCommand\` and \`access\`. Any caller with access to the agent's company (403 otherwise). ${REDACTED_VIEW}`,
        ].join(' '),
        params: agentParams,
        querystring: agentLookupQuery,
        response: { 200: agentDetailResponse, ...authenticated(), ...errors([403, ANOTHER_COMPANY], AGENT_NOT_FOUND) },
      },
    },
    async (request) => {
      return detail(
        request,
        await requireAgentAccess(db, actorOf(request), request.params.agentId, request.query.companyId),
      );
    },
  );

  app.patch(
    '/api/agents/:agentId',
    {
      schema: {
        tags,
        summary: 'Update an agent',
        description: [
          'The board, the company CEO agent, or the agent itself; the agent itself may not change `status`, `role` or `reportsTo` (403 naming the fields). Omitted fields stay.',
          '`adapterConfig` is merged into the current one unless `replaceAdapterConfig` is true (the skill selection and instruction-bundle keys survive a replacement); `runtimeConfig` is merged too.',
          'A rename whose shortname is used by another live agent of the company is 409. `permissions` is 422 (use PATCH .../permissions); `status` cannot leave `terminated` or `pending_approval` (409) nor be set to them (422).',
        ].join(' '),
        params: agentParams,
        body: patchAgentBody,
        response: {
          200: agentResponse.describe('The agent, updated'),
          ...authenticated(),
          ...errors(
            [
              403,
              `${ANOTHER_COMPANY}, the caller is another non-CEO agent, or the agent itself changes status, role or reportsTo`,
            ],
            AGENT_NOT_FOUND,
            [409, 'the new shortname is taken, or a status change from terminated or pending_approval'],
            [
              422,
              '`permissions` in the body, status terminated or pending_approval, reportsTo invalid (self, cycle, terminated or another company), or a secret reference of another company',
            ],
          ),
        },
      },
    },
    async (request) => {
      return view(request, await updateAgent(contextOf(db, request), request.params.agentId, request.body));
    },
  );

  app.patch(
    '/api/agents/:agentId/permissions',
    {
      schema: {
        tags,
        summary: "Change an agent's permissions",
        description: `Sets \`canCreateAgents\` (stored in \`permissions\`) and/or the \`canAssignTasks\` grant (shown in \`access\`); at least one is required (400). ${BOARD_OR_CEO}`,
        params: agentParams,
        body: permissionsBody,
        response: {
          200: agentDetailResponse.describe('The agent with its updated access'),
          ...authenticated(),
          ...errors(
            [403, `${ANOTHER_COMPANY}, or the caller is neither the board nor the company CEO agent`],
            AGENT_NOT_FOUND,
          ),
        },
      },
    },
    async (request) => {
      return detail(request, await updatePermissions(contextOf(db, request), request.params.agentId, request.body));
    },
  );

  app.patch(
    '/api/agents/:agentId/budgets',
    {
      schema: {
        tags,
        summary: "Set an agent's monthly budget",
        description: `Sets \`budgetMonthlyCents\` and keeps the agent's monthly budget policy in step (0 switches it off; a pending_approval agent gets its policy when its hire is approved). ${BOARD_OR_CEO}`,
        params: agentParams,
        body: budgetBody,
        response: {
          200: agentResponse.describe('The agent with its new budget'),
          ...authenticated(),
          ...errors(
            [403, `${ANOTHER_COMPANY}, or the caller is neither the board nor the company CEO agent`],
            AGENT_NOT_FOUND,
          ),
        },
      },
    },
    async (request) => {
      const updated = await updateBudget(
        contextOf(db, request),
        request.params.agentId,
        request.body.budgetMonthlyCents,
      );
      return view(request, await requireAgentAccess(db, actorOf(request), updated.id));
    },
  );

  for (const [action, { run, summary, description, result, conflict }] of Object.entries(LIFECYCLE)) {
    app.post(
      `/api/agents/:agentId/${action}`,
      {
        schema: {
          tags,
          summary,
          description: `${description} No body. ${BOARD_OR_CEO}`,
          params: agentParams,
          response: {
            200: agentResponse.describe(result),
            ...authenticated(),
            ...errors(
              [403, `${ANOTHER_COMPANY}, or the caller is neither the board nor the company CEO agent`],
              AGENT_NOT_FOUND,
              ...(conflict ? [[409, conflict] as [ErrorStatus, string]] : []),
            ),
          },
        },
      },
      async (request) => {
        return view(request, await run(contextOf(db, request), request.params.agentId));
      },
    );
  }

  app.delete(
    '/api/agents/:agentId',
    {
      schema: {
        tags,
        summary: 'Delete an agent for good',
        description:
          'Board only. Removes the agent with its keys, wakeups and runs; issues, goals, projects and reports that named it keep a null reference, and its budget policy is switched off. To stop an agent but keep its record, terminate it instead.',
        params: agentParams,
        response: {
          200: z
            .object({ ok: z.literal(true), id: uuidOut().describe('the deleted agent') })
            .describe('The agent was deleted'),
          ...authenticated(),
          ...errors([403, `board access required, or ${ANOTHER_COMPANY}`], AGENT_NOT_FOUND),
        },
      },
    },
    async (request) => {
      return { ok: true as const, id: await deleteAgent(contextOf(db, request), request.params.agentId) };
    },
  );

  app.get(
    '/api/agents/:agentId/keys',
    {
      schema: {
        tags,
        summary: "List an agent's API keys",
        description:
          'Key records without their tokens, revoked keys included, newest first (at most 500). The board or the agent itself (other agents 403).',
        params: agentParams,
        response: {
          200: z.array(agentKeyResponse).describe('The key records, newest first'),
          ...authenticated(),
          ...errors([403, `${ANOTHER_COMPANY}, or an agent other than this one`], AGENT_NOT_FOUND),
        },
      },
    },
    async (request) => {
      return (await listKeys(contextOf(db, request), request.params.agentId)).map(presentKey);
    },
  );

  app.post(
    '/api/agents/:agentId/keys',
    {
      schema: {
        tags,
        summary: 'Create an API key for an agent',
        description:
          'Board only (a leaked agent key must not mint more keys). The token (`svc_agent_...`) is in this response only; the server keeps its SHA-256 hash. A pending_approval or terminated agent gets no key (409).',
        params: agentParams,
        body: createKeyBody,
        response: {
          201: createdAgentKeyResponse,
          ...authenticated(),
          ...errors([403, `board access required, or ${ANOTHER_COMPANY}`], AGENT_NOT_FOUND, [
            409,
            'the agent is pending_approval or terminated',
          ]),
        },
      },
    },
    async (request, reply) => {
      const { key, token } = await createKey(contextOf(db, request), request.params.agentId, request.body.name);
      return reply.status(201).send({ ...presentKey(key), token });
    },
  );

  app.delete(
    '/api/agents/:agentId/keys/:keyId',
    {
      schema: {
        tags,
        summary: "Revoke an agent's API key",
        description:
          'Board only. Marks the key revoked (it stops authenticating at once) and keeps the record; revoking again keeps the first `revokedAt`.',
        params: keyParams,
        response: {
          200: agentKeyResponse.describe('The key record, revoked'),
          ...authenticated(),
          ...errors(
            [403, `board access required, or ${ANOTHER_COMPANY}`],
            [404, 'no such agent, or no such key of this agent'],
          ),
        },
      },
    },
    async (request) => {
      return presentKey(await revokeKey(contextOf(db, request), request.params.agentId, request.params.keyId));
    },
  );

  app.post(
    '/api/agents/:agentId/wakeup',
    {
      schema: {
        tags,
        summary: 'Wake an agent',
        description: [
          'Queues a wakeup request for the engine and answers 202 at once. The board or the agent itself (other agents 403).',
          "A wake about an issue names it in `payload.issueId` (an issue UUID of the same company: 400 if not a UUID, 422 otherwise); it then coalesces into the agent's live run on that issue, or waits (`deferred`) while another agent's run holds it.",
          "A paused, terminated or pending_approval agent is 409. Skipped at once, with the 202 body `{ skipped: true, reason, agentId, source }` and nothing queued: a `timer` wake while `runtimeConfig.heartbeat.enabled` is not true (`heartbeat_disabled`), and any wake while the agent's wake budget is spent (`wake_rate_limited`).",
          'The body of a queued wake carries its id, `status` and, once the engine has decided, `runId` and `outcomeReason`. Repeating an `idempotencyKey` for the same agent answers the first request (as it is now) without queueing another.',
        ].join(' '),
        params: agentParams,
        body: wakeupBody,
        response: {
          202: z
            .union([wakeupResponse, skippedWakeupResponse])
            .describe('The queued wakeup request, or the skipped payload'),
          ...authenticated(),
          ...errors(
            [400, 'invalid body, or `payload.issueId` is not a UUID'],
            [403, `${ANOTHER_COMPANY}, or an agent other than this one`],
            AGENT_NOT_FOUND,
            [409, 'the agent is paused, terminated or pending_approval'],
            [422, '`payload.issueId` names no issue of this company'],
          ),
        },
      },
    },
    async (request, reply) => {
      const result = await requestWakeup(contextOf(db, request), request.params.agentId, request.body);
      return reply.status(202).send('skipped' in result ? result : presentWakeup(result));
    },
  );
}

import type { FastifyRequest } from 'fastify';
import type { App, AppDeps } from '../../server/deps.ts';
import { authorize, requireAgent, requireBoard, requireCompanyAccess } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { notFound } from '../../core/errors.ts';
import { hireAgent } from './hires.ts';
import { createKey, listKeys, revokeKey } from './keys.ts';
import { deleteAgent, pauseAgent, resumeAgent, terminateAgent } from './lifecycle.ts';
import { callerAgent, chainOfCommand, findAgentById, listLiveAgents, requireAgentAccess } from './lookup.ts';
import { presentApproval } from '../approvals/present.ts';
import { canHireAgents, canListAgentKeys, canManageAgent, canPatchAgentField, canReadConfig, canUpdateAgent, canWakeAgent, taskAccess } from './policy.ts';
import { presentAgent, presentChainLink, presentKey, presentWakeup, type Agent } from './present.ts';
import {
  agentLookupQuery,
  agentParams,
  budgetBody,
  companyParams,
  createAgentBody,
  createKeyBody,
  hireAgentBody,
  keyParams,
  patchAgentBody,
  permissionsBody,
  wakeupBody,
} from './schemas.ts';
import { createAgent, updateAgent, updateBudget, updatePermissions } from './service.ts';
import { requestWakeup } from './wakeup.ts';


const tags = ['agents'];

export function registerAgentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const ctx = (request: FastifyRequest) => ({ db, actor: actorOf(request) });
  /** The agent as this caller may see it (redacted when it may not read configuration). */
  const view = async (request: FastifyRequest, agent: Agent) => {
    const actor = actorOf(request);
    return presentAgent(agent, { canReadConfig: canReadConfig(actor, await callerAgent(db, actor), agent) });
  };
  const detail = async (request: FastifyRequest, agent: Agent) => ({
    ...(await view(request, agent)),
    chainOfCommand: (await chainOfCommand(db, agent)).map(presentChainLink),
    access: taskAccess(agent),
  });

  app.get('/api/companies/:companyId/agents', { schema: { tags, params: companyParams } }, async (request) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    const actor = actorOf(request);
    const caller = await callerAgent(db, actor);
    const rows = await listLiveAgents(db, company.id);
    return rows.map((a) => presentAgent(a, { canReadConfig: canReadConfig(actor, caller, a) }));
  });

  app.post('/api/companies/:companyId/agents', { schema: { tags, params: companyParams, body: createAgentBody } }, async (request, reply) => {
    requireBoard(actorOf(request));
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return reply.status(201).send(await view(request, await createAgent(ctx(request), company.id, request.body)));
  });

  app.post('/api/companies/:companyId/agent-hires', { schema: { tags, params: companyParams, body: hireAgentBody } }, async (request, reply) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    const actor = actorOf(request);
    authorize(canHireAgents(actor, await callerAgent(db, actor), company.id), 'hiring needs the board, the company CEO agent or permissions.canCreateAgents');
    const { agent, approval } = await hireAgent(ctx(request), company, request.body);
    return reply.status(201).send({ agent: await view(request, agent), approval: approval ? presentApproval(approval) : null });
  });

  app.get('/api/agents/me', { schema: { tags } }, async (request) => {
    const actor = requireAgent(actorOf(request));
    const me = await findAgentById(db, actor.agentId);
    if (!me) throw notFound('agent');
    return detail(request, me);
  });

  app.get('/api/agents/:agentId', { schema: { tags, params: agentParams, querystring: agentLookupQuery } }, async (request) => {
    return detail(request, await requireAgentAccess(db, actorOf(request), request.params.agentId, request.query.companyId));
  });

  app.patch('/api/agents/:agentId', { schema: { tags, params: agentParams, body: patchAgentBody } }, async (request) => {
    const actor = actorOf(request);
    const agent = await requireAgentAccess(db, actor, request.params.agentId);
    authorize(canUpdateAgent(actor, agent), 'only the board, the company CEO agent or the agent itself may update an agent');
    const denied = Object.keys(request.body).filter((field) => !canPatchAgentField(actor, agent, field));
    authorize(denied.length === 0, 'an agent may not change its own status, role or reportsTo', { fields: denied });
    return view(request, await updateAgent(ctx(request), agent.id, request.body));
  });

  app.patch('/api/agents/:agentId/permissions', { schema: { tags, params: agentParams, body: permissionsBody } }, async (request) => {
    const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
    authorize(canManageAgent(actorOf(request), agent), 'only the board or the company CEO agent may change agent permissions');
    return detail(request, await updatePermissions(ctx(request), agent.id, request.body));
  });

  app.patch('/api/agents/:agentId/budgets', { schema: { tags, params: agentParams, body: budgetBody } }, async (request) => {
    const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
    authorize(canManageAgent(actorOf(request), agent), 'only the board or the company CEO agent may change agent budgets');
    return view(request, await updateBudget(ctx(request), agent.id, request.body.budgetMonthlyCents));
  });

  const lifecycle = { pause: pauseAgent, resume: resumeAgent, terminate: terminateAgent } as const;
  for (const [action, run] of Object.entries(lifecycle)) {
    app.post(`/api/agents/:agentId/${action}`, { schema: { tags, params: agentParams } }, async (request) => {
      const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
      authorize(canManageAgent(actorOf(request), agent), `only the board or the company CEO agent may ${action} agents`);
      return view(request, await run(ctx(request), agent.id));
    });
  }

  app.delete('/api/agents/:agentId', { schema: { tags, params: agentParams } }, async (request) => {
    requireBoard(actorOf(request));
    const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
    await deleteAgent(ctx(request), agent.id);
    return { ok: true, id: agent.id };
  });

  app.get('/api/agents/:agentId/keys', { schema: { tags, params: agentParams } }, async (request) => {
    const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
    authorize(canListAgentKeys(actorOf(request), agent), 'only the board or the agent itself may list its keys');
    return (await listKeys(ctx(request), agent.id)).map(presentKey);
  });

  app.post('/api/agents/:agentId/keys', { schema: { tags, params: agentParams, body: createKeyBody } }, async (request, reply) => {
    requireBoard(actorOf(request));
    const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
    const { key, token } = await createKey(ctx(request), agent.id, request.body.name);
    return reply.status(201).send({ ...presentKey(key), token });
  });

  app.delete('/api/agents/:agentId/keys/:keyId', { schema: { tags, params: keyParams } }, async (request) => {
    requireBoard(actorOf(request));
    const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
    return presentKey(await revokeKey(ctx(request), agent.id, request.params.keyId));
  });

  app.post('/api/agents/:agentId/wakeup', { schema: { tags, params: agentParams, body: wakeupBody } }, async (request, reply) => {
    const agent = await requireAgentAccess(db, actorOf(request), request.params.agentId);
    authorize(canWakeAgent(actorOf(request), agent), 'only the board or the agent itself may wake an agent');
    const result = await requestWakeup(ctx(request), agent.id, request.body);
    return reply.status(202).send('skipped' in result ? result : presentWakeup(result));
  });
}

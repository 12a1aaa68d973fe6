// What an agent response shows. The one place that decides configuration redaction. The response
// schemas below document each shape and type its presenter (the route's serializer applies them).
import { z } from 'zod';
import type { Agent, AgentKey } from '../../db/rows.ts';
import { wakeRateLimitEnd } from '../wakeups/guards.ts';
import type { WakeupRequest } from '../../db/rows.ts';
import { WAKEUP_STATUSES } from '../../core/statuses.ts';
import { redact, REDACTED } from '../../lib/redact.ts';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { approvalResponse } from '../approvals/present.ts';
import { agentStatus, type AgentStatus } from './schemas.ts';
import type { MonthlyBudget } from '../budgets/budget-policies.ts';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const jsonObject = () => z.record(z.string(), z.unknown());

/**
 * A configuration object with every env value hidden (secret references included: their ids say
 * which secrets the agent uses) and sensitive-looking keys elsewhere redacted. Used for callers
 * who may not read configuration, for activity details and for hire approval snapshots.
 */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  const out = redact(config) as Record<string, unknown>;
  if (isObject(out.env)) out.env = Object.fromEntries(Object.keys(out.env).map((k) => [k, REDACTED]));
  return out;
}

export interface AgentView {
  /** Whether the caller may read adapterConfig / runtimeConfig in full (see policy.canReadConfig). */
  canReadConfig: boolean;
  /** Its monthly budget policy and this month's spend (budgets/budget-policies.ts monthlyBudgets). */
  budget: MonthlyBudget;
}

const REDACTION = 'redacted (every `env` value and sensitive-looking keys hidden) when `configRedacted` is true';

/** An agent (SPEC section 2, Agent), as every agent route returns it. */
export const agentResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    name: z.string(),
    urlKey: z.string().describe('company-unique shortname, usable in place of the id'),
    role: z.string().describe('label such as ceo, engineer, general'),
    title: z.string().nullable(),
    capabilities: z.string().nullable(),
    reportsTo: uuidOut().nullable().describe('the manager; null at the top of the org tree'),
    adapterType: z.string().describe('the runtime adapter, e.g. `process` or `http`'),
    adapterConfig: jsonObject().describe(`adapter-specific settings; ${REDACTION}`),
    runtimeConfig: jsonObject().describe(
      `runtime settings (\`heartbeat.enabled\`, \`heartbeat.intervalSec\`, \`heartbeat.skipWhenIdle\`, \`maxConcurrentRuns\`, \`maxRunsPerHour\`); ${REDACTION}`,
    ),
    budgetMonthlyCents: z.number().int(),
    spentMonthlyCents: z.number().int().describe('spend in the current UTC calendar month'),
    status: agentStatus,
    pauseReason: z
      .string()
      .nullable()
      .describe('why the agent is paused (`manual`, or a budget hard stop); null otherwise'),
    errorReason: z
      .string()
      .nullable()
      .describe(
        'why the agent is in `error`: the run that put it there and how it ended (`run <id> failed: ...`); null whenever the status is not `error`',
      ),
    permissions: z.object({ canCreateAgents: z.boolean() }),
    wakeRateLimitedUntil: timestampOut()
      .nullable()
      .describe(
        'set while the wake budget (`runtimeConfig.maxRunsPerHour`, default 30) is spent: wakes until then are skipped with reason `wake_rate_limited`; null otherwise',
      ),
    metadata: jsonObject(),
    lastHeartbeatAt: timestampOut().nullable(),
    terminatedAt: timestampOut().nullable(),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
    configRedacted: z
      .boolean()
      .describe(
        "true when the caller may not read this agent's configuration (only the board, the agent itself, the company CEO agent and agents with canCreateAgents may)",
      ),
  })
  .describe('The agent');

export type AgentResponse = z.output<typeof agentResponse>;

export function presentAgent(agent: Agent, view: AgentView): AgentResponse {
  const adapterConfig = view.canReadConfig ? agent.adapterConfig : redactConfig(agent.adapterConfig);
  const runtimeConfig = view.canReadConfig ? agent.runtimeConfig : redactConfig(agent.runtimeConfig);
  return {
    id: agent.id,
    companyId: agent.companyId,
    name: agent.name,
    urlKey: agent.urlKey,
    role: agent.role,
    title: agent.title,
    capabilities: agent.capabilities,
    reportsTo: agent.reportsTo,
    adapterType: agent.adapterType,
    adapterConfig,
    runtimeConfig,
    budgetMonthlyCents: view.budget.budgetMonthlyCents,
    spentMonthlyCents: view.budget.spentMonthlyCents,
    status: agent.status as AgentStatus,
    pauseReason: agent.pauseReason,
    // Only while in error: a status set by anything else (pause, resume, a patch) leaves the old one behind.
    errorReason: agent.status === 'error' ? agent.errorReason : null,
    permissions: { canCreateAgents: agent.permissions.canCreateAgents === true },
    metadata: agent.metadata,
    wakeRateLimitedUntil: wakeRateLimitEnd(agent),
    lastHeartbeatAt: agent.lastHeartbeatAt,
    terminatedAt: agent.terminatedAt,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
    configRedacted: !view.canReadConfig,
  };
}

/** chainOfCommand entries: the manager chain from the direct manager up to the root. */
export const chainLinkResponse = z
  .object({
    id: uuidOut(),
    name: z.string(),
    urlKey: z.string(),
    role: z.string(),
    title: z.string().nullable(),
    status: agentStatus,
  })
  .describe('A manager in brief');

export type ChainLinkResponse = z.output<typeof chainLinkResponse>;

export function presentChainLink(agent: Agent): ChainLinkResponse {
  return {
    id: agent.id,
    name: agent.name,
    urlKey: agent.urlKey,
    role: agent.role,
    title: agent.title,
    status: agent.status as AgentStatus,
  };
}

/** GET one agent: the agent plus its chain of command and task-assignment access (SPEC). */
export const agentDetailResponse = agentResponse
  .extend({
    chainOfCommand: z
      .array(chainLinkResponse)
      .describe('the managers from the direct manager up to the root (at most 100)'),
    access: z
      .object({
        canAssignTasks: z.boolean(),
        reason: z
          .enum(['explicit_grant', 'ceo_role', 'agent_creator', 'none'])
          .describe(
            'why: the `canAssignTasks` grant, the `ceo` role, `permissions.canCreateAgents`, or none (always none for a terminated agent)',
          ),
      })
      .describe('whether the agent may assign tasks, and why'),
  })
  .describe('The agent with its chain of command and access');

export type AgentDetailResponse = z.output<typeof agentDetailResponse>;

/** POST agent-hires: the agent, and the hire_agent approval when the company requires one. */
export const agentHireResponse = z
  .object({
    agent: agentResponse.describe(
      'the agent: `pending_approval` when the company requires board approval for new agents, else `idle`',
    ),
    approval: approvalResponse
      .nullable()
      .describe(
        'the pending hire_agent approval carrying the configuration snapshot; null when no approval is required',
      ),
  })
  .describe('The hired agent and its approval');

/** An agent API key record; the token itself is never shown again after creation. */
export const agentKeyResponse = z
  .object({
    id: uuidOut(),
    agentId: uuidOut(),
    name: z.string(),
    createdAt: timestampOut(),
    lastUsedAt: timestampOut().nullable(),
    revokedAt: timestampOut()
      .nullable()
      .describe('set when the key was revoked (revoked keys are kept for the audit trail)'),
  })
  .describe('An agent API key (without its token)');

export type AgentKeyResponse = z.output<typeof agentKeyResponse>;

export function presentKey(key: AgentKey): AgentKeyResponse {
  return {
    id: key.id,
    agentId: key.agentId,
    name: key.name,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  };
}

export const createdAgentKeyResponse = agentKeyResponse
  .extend({
    token: z.string().describe('the key itself (`svc_agent_...`): shown only in this response, stored only as a hash'),
  })
  .describe('The new key with its one-time token');

export const WAKEUP_SOURCES = ['timer', 'assignment', 'on_demand', 'automation'] as const;

/** A queued wakeup request (the wakeup queue row). */
export const wakeupResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    agentId: uuidOut(),
    source: z.enum(WAKEUP_SOURCES),
    triggerDetail: z.enum(['manual', 'ping', 'callback', 'system']).nullable(),
    reason: z.string().nullable(),
    payload: jsonObject().nullable(),
    idempotencyKey: z.string().nullable(),
    forceFreshSession: z.boolean(),
    issueId: uuidOut().nullable().describe('the issue the wake is about (`payload.issueId`), null for none'),
    status: z
      .enum(WAKEUP_STATUSES)
      .describe(
        '`queued` until a dispatcher claims it (`claimed`); then `completed` (it became run `runId`), `coalesced` (merged into the live run `runId`), `deferred` (waiting for the run holding its issue, or for a free run slot of the agent), `skipped`, `cancelled` or `failed`',
      ),
    outcomeReason: z
      .string()
      .nullable()
      .describe(
        'why it was coalesced, deferred, skipped, cancelled or failed, e.g. `live_run_on_issue`, `issue_busy`, `agent_busy`, `agent_paused`',
      ),
    runId: uuidOut().nullable().describe('the run it became or was merged into, once known'),
    createdAt: timestampOut(),
  })
  .describe('The wakeup request, queued (or the first request with the same idempotencyKey)');

export type WakeupResponse = z.output<typeof wakeupResponse>;

export function presentWakeup(request: WakeupRequest): WakeupResponse {
  return {
    id: request.id,
    companyId: request.companyId,
    agentId: request.agentId,
    source: request.source as WakeupResponse['source'],
    triggerDetail: request.triggerDetail as WakeupResponse['triggerDetail'],
    reason: request.reason,
    payload: request.payload,
    idempotencyKey: request.idempotencyKey,
    forceFreshSession: request.forceFreshSession,
    issueId: request.issueId,
    status: request.status as WakeupResponse['status'],
    outcomeReason: request.outcomeReason,
    runId: request.runId,
    createdAt: request.createdAt,
  };
}

/** The 202 body when the server decides not to wake the agent (see ./wakeup.ts). */
export const skippedWakeupResponse = z
  .object({
    skipped: z.literal(true),
    reason: z
      .enum(['heartbeat_disabled', 'wake_rate_limited'])
      .describe(
        '`heartbeat_disabled`: a timer wake while `runtimeConfig.heartbeat.enabled` is not true; `wake_rate_limited`: the wake budget is spent (see `wakeRateLimitedUntil` on the agent)',
      ),
    agentId: uuidOut(),
    source: z.enum(WAKEUP_SOURCES),
  })
  .describe('The wakeup was skipped; nothing was queued');

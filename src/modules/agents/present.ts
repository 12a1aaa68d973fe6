// What an agent response shows. The one place that decides configuration redaction.
import type { agentApiKeys, agents } from '../../db/schema/index.ts';
import type { WakeupRequest } from '../wakeups/queue.ts';
import { redact, REDACTED } from '../../lib/redact.ts';

export type Agent = typeof agents.$inferSelect;
export type AgentKey = typeof agentApiKeys.$inferSelect;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

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
}

export function presentAgent(agent: Agent, view: AgentView) {
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
    budgetMonthlyCents: agent.budgetMonthlyCents,
    spentMonthlyCents: agent.spentMonthlyCents,
    status: agent.status,
    pauseReason: agent.pauseReason,
    permissions: { canCreateAgents: agent.permissions.canCreateAgents === true },
    metadata: agent.metadata,
    lastHeartbeatAt: agent.lastHeartbeatAt,
    terminatedAt: agent.terminatedAt,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
    configRedacted: !view.canReadConfig,
  };
}

export function presentKey(key: AgentKey) {
  return { id: key.id, agentId: key.agentId, name: key.name, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt, revokedAt: key.revokedAt };
}

/** chainOfCommand entries: the manager chain from the direct manager up to the root. */
export function presentChainLink(agent: Agent) {
  return { id: agent.id, name: agent.name, urlKey: agent.urlKey, role: agent.role, title: agent.title, status: agent.status };
}

export function presentWakeup(request: WakeupRequest) {
  return {
    id: request.id,
    companyId: request.companyId,
    agentId: request.agentId,
    source: request.source,
    triggerDetail: request.triggerDetail,
    reason: request.reason,
    payload: request.payload,
    idempotencyKey: request.idempotencyKey,
    forceFreshSession: request.forceFreshSession,
    status: request.status,
    createdAt: request.createdAt,
  };
}

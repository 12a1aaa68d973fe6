// Who is acting. HTTP requests resolve to a board or agent actor (SPEC section 5); code with no
// request behind it (engine loops, schedulers) acts as the system actor and calls the same services.
export interface BoardActor {
  kind: 'board';
  userId: string;
  isInstanceOwner: boolean;
  via: 'session' | 'board_key' | 'local_trusted';
  keyId?: string;
  runId?: string;
}

export interface AgentActor {
  kind: 'agent';
  agentId: string;
  companyId: string;
  role: string;
  adapterType: string;
  via: 'agent_key' | 'agent_jwt';
  keyId?: string;
  runId?: string;
}

export interface SystemActor {
  kind: 'system';
  /** What is acting, e.g. `dispatcher` or `reaper`: recorded as the activity entry's actorId. */
  component: string;
  runId?: string;
}

/**
 * A plugin's worker acting through a host call (issue 27 section 2): inside the one company whose
 * slot runs it, with the capabilities that company consented to, on behalf of whoever caused the
 * invocation (the board user for UI calls, the agent for tools; null for its own jobs, events and
 * webhooks). It may do what both its grant and its cause may, never more.
 */
export interface PluginActor {
  kind: 'plugin';
  pluginId: string;
  pluginKey: string;
  companyId: string;
  /** The company's consented grant (plugin_company_enablements.capabilities). */
  capabilities: readonly string[];
  cause: BoardActor | AgentActor | null;
}

export type Actor = BoardActor | AgentActor | SystemActor | PluginActor;

/** The company's CEO agent acting (SPEC: the CEO may manage its company's agents and settings). */
export function isCeoOf(actor: Actor, companyId: string): actor is AgentActor {
  return actor.kind === 'agent' && actor.companyId === companyId && actor.role === 'ceo';
}

export function systemActor(component: string, runId?: string): SystemActor {
  return { kind: 'system', component, ...(runId && { runId }) };
}

/** The activity-log view of an actor: actorType, actorId, agentId and runId. */
export function actorStamp(actor: Actor): {
  actorType: 'user' | 'agent' | 'system' | 'plugin';
  actorId: string;
  agentId: string | null;
  runId: string | null;
} {
  switch (actor.kind) {
    case 'agent':
      return { actorType: 'agent', actorId: actor.agentId, agentId: actor.agentId, runId: actor.runId ?? null };
    case 'board':
      return { actorType: 'user', actorId: actor.userId, agentId: null, runId: actor.runId ?? null };
    case 'system':
      return { actorType: 'system', actorId: actor.component, agentId: null, runId: actor.runId ?? null };
    case 'plugin':
      return { actorType: 'plugin', actorId: actor.pluginId, agentId: null, runId: null };
  }
}

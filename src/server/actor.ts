// Who is calling. Resolved once per request by the auth plugin (SPEC section 5).
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

export type Actor = BoardActor | AgentActor;

/** The activity-log view of an actor: actorType, actorId, agentId and runId. */
export function actorStamp(actor: Actor | null): { actorType: 'user' | 'agent' | 'system'; actorId: string; agentId: string | null; runId: string | null } {
  if (!actor) return { actorType: 'system', actorId: 'system', agentId: null, runId: null };
  if (actor.kind === 'agent') return { actorType: 'agent', actorId: actor.agentId, agentId: actor.agentId, runId: actor.runId ?? null };
  return { actorType: 'user', actorId: actor.userId, agentId: null, runId: actor.runId ?? null };
}

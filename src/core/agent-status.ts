// The agent status state machine (docs/engine.md, SPEC section 3 "Agents") and the only writer of
// agents.status (test/single-writer.test.ts holds every other file to that). An agent is created
// idle or pending_approval (agents/service.ts); every later change is an event here:
//
//   event           caused by                         from                            to
//   pause           POST pause, PATCH status paused   any but terminated (409),       paused (pauseReason given)
//                                                     pending_approval (409)
//   resume          POST resume                       paused; terminated and          idle
//                                                     pending_approval refused (409)
//   set             PATCH status                      see assertStatusPatch           the status asked for
//   terminate       POST terminate                    any                             terminated
//   approve_hire    hire_agent approval approved      pending_approval, same company  idle
//   reject_hire     hire_agent approval rejected      pending_approval, same company  terminated
//   budget_stop     a budget hard stop                any that can work               paused (pauseReason budget)
//   budget_release  a budget override approved        paused for the budget           idle
//   run_started     a run starts                      any that can work               running
//   run_settled     a run ends                        any that can work               follows its runs (below)
//
// An event that does not apply leaves the agent as it is (null change); only the board's own
// requests are refused, with the answers the API gives. Lives in core, below runs, budgets,
// approvals and agents, which all cause transitions. It locks the agent row first (lock order,
// runs/lock-order.ts); a caller that already holds it only takes it again.
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { type Agent, oneRow } from '../db/rows.ts';
import { agents } from '../db/schema/index.ts';
import { lockAgent } from './agent-access.ts';
import { conflict, unprocessable } from './errors.ts';
import { canAgentWork, type AGENT_STATUSES } from './statuses.ts';

export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Why work stopped when a budget stopped it: the agent's pauseReason. */
export const BUDGET_PAUSE_REASON = 'budget';

export type AgentStatusEvent =
  | { kind: 'pause'; reason: string }
  | { kind: 'resume' }
  | { kind: 'set'; status: AgentStatus }
  | { kind: 'terminate' }
  | { kind: 'approve_hire'; companyId: string }
  | { kind: 'reject_hire'; companyId: string }
  | { kind: 'budget_stop' }
  | { kind: 'budget_release' }
  | { kind: 'run_started' }
  /**
   * outcome: what the run says of the agent (idle after a success, error after a failure, null
   * when it says nothing: a cancel, or a run first seen on a checkout); stillLive: another run of
   * the agent is live.
   */
  | { kind: 'run_settled'; outcome: 'idle' | 'error' | null; errorReason: string; stillLive: boolean };

interface Change {
  status: AgentStatus;
  pauseReason?: string | null;
  errorReason?: string | null;
  /** Stamps terminatedAt. */
  terminated?: boolean;
  /** Stamps lastHeartbeatAt (a run started). */
  heartbeat?: boolean;
}

type Current = Pick<Agent, 'status' | 'pauseReason' | 'errorReason' | 'companyId'>;

/**
 * The status a PATCH may set. Terminated is final and pending_approval ends only through its hire
 * approval (409 for both). Terminating goes through POST /terminate, which also revokes keys, and
 * pending_approval is never entered by a patch (422 for both).
 */
function assertStatusPatch(current: string, next: string): void {
  if (next === current) return;
  if (current === 'terminated') throw conflict('a terminated agent cannot be resumed or changed to another status');
  if (current === 'pending_approval')
    throw conflict('a pending_approval agent is activated only by approving its hire');
  if (next === 'terminated') throw unprocessable('terminate an agent with POST /api/agents/{agentId}/terminate');
  if (next === 'pending_approval') throw unprocessable('an agent cannot be returned to pending_approval');
}

/** The table: the change an event makes to an agent as it is, null for none; throws when the board asks for what may not be. */
function nextAgentState(agent: Current, event: AgentStatusEvent): Change | null {
  const { status } = agent;
  switch (event.kind) {
    case 'pause':
      if (status === 'terminated' || status === 'pending_approval') throw conflict(`cannot pause a ${status} agent`);
      return status === 'paused' ? null : { status: 'paused', pauseReason: event.reason };
    case 'resume':
      if (status === 'terminated' || status === 'pending_approval') throw conflict(`cannot resume a ${status} agent`);
      return status === 'paused' ? { status: 'idle', pauseReason: null } : null;
    case 'set':
      assertStatusPatch(status, event.status);
      // What the pause and resume routes mean: a pause by hand (which a budget release never undoes); leaving paused clears the reason.
      if (event.status === 'paused') return status === 'paused' ? null : { status: 'paused', pauseReason: 'manual' };
      return { status: event.status, pauseReason: null };
    case 'terminate':
      return status === 'terminated' ? null : { status: 'terminated', terminated: true };
    case 'approve_hire':
      return status === 'pending_approval' && agent.companyId === event.companyId ? { status: 'idle' } : null;
    case 'reject_hire':
      return status === 'pending_approval' && agent.companyId === event.companyId
        ? { status: 'terminated', terminated: true }
        : null;
    case 'budget_stop':
      return canAgentWork(status) ? { status: 'paused', pauseReason: BUDGET_PAUSE_REASON } : null;
    case 'budget_release':
      return status === 'paused' && agent.pauseReason === BUDGET_PAUSE_REASON
        ? { status: 'idle', pauseReason: null }
        : null;
    // Runs move only the statuses that can work: the others are decisions of the board (or a budget) that runs never undo.
    case 'run_started':
      return canAgentWork(status) ? { status: 'running', errorReason: null, heartbeat: true } : null;
    case 'run_settled':
      if (!canAgentWork(status)) return null;
      // A failure marks the agent until its next success (with that run's reason); a run that says
      // nothing leaves what the last real outcome said.
      if (event.stillLive) return { status: 'running', errorReason: null };
      if (event.outcome === 'error') return { status: 'error', errorReason: event.errorReason };
      if (event.outcome === 'idle' || status === 'running') return { status: 'idle', errorReason: null };
      return null;
  }
}

export interface AgentTransition {
  before: Agent;
  /** The row after the event: the same as before when the event changed nothing. */
  agent: Agent;
  changed: boolean;
}

/** Applies an event to one agent, inside the caller's transaction. 404 when the agent does not exist. */
export async function transitionAgent(tx: Tx, agentId: string, event: AgentStatusEvent): Promise<AgentTransition> {
  const before = await lockAgent(tx, agentId);
  const change = nextAgentState(before, event);
  if (!change) return { before, agent: before, changed: false };
  const { status, terminated, heartbeat, ...reasons } = change;
  const updated = await tx
    .update(agents)
    .set({
      status,
      ...reasons,
      ...(terminated ? { terminatedAt: sql`now()` } : {}),
      ...(heartbeat ? { lastHeartbeatAt: sql`now()` } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(agents.id, agentId))
    .returning();
  return { before, agent: oneRow(updated, 'locked agent'), changed: true };
}

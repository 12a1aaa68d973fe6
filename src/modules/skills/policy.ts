// Who may do what with skills, after the company boundary:
// - Read (list, detail, files, an agent's snapshot): any caller with access to the company.
// - Change the company's skills (create, import, file update, delete): the board, or an agent whose
//   row holds permissions.canCreateAgents (SPEC Skills: skills shape what hires can do).
// - Sync an agent's skills: whoever may PATCH the agent (board, company CEO agent, the agent itself),
//   since the selection is part of the agent's configuration.
import type { Actor } from '../../core/actor.ts';
import type { CallerAgent } from '../../core/agent-access.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';
import type { Agent } from '../../db/rows.ts';

export function canManageSkills(actor: Actor, caller: CallerAgent, companyId: string): boolean {
  if (actor.kind !== 'agent') return true;
  return caller?.companyId === companyId && caller.permissions.canCreateAgents === true;
}

/** An agent's skill selection is part of its configuration: whoever may PATCH the agent (`agent.syncSkills`). */
export async function assertMaySyncAgentSkills(ctx: Ctx, agent: Pick<Agent, 'id' | 'companyId'>): Promise<void> {
  await assertMay(ctx, 'agent.syncSkills', { companyId: agent.companyId, agentId: agent.id });
}

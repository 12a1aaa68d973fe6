// Who may do what with skills: the `skill.*` rows of the permission table (core/permissions.ts):
// - Read (list, detail, files, an agent's snapshot): any caller with access to the company.
// - Change the company's skills (create, import, file update, delete): the board, or an agent whose
//   row holds permissions.canCreateAgents (SPEC Skills: skills shape what hires can do).
// - Sync an agent's skills: whoever may PATCH the agent (board, company CEO agent, the agent itself),
//   since the selection is part of the agent's configuration.
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';
import type { Agent } from '../../db/rows.ts';

type ManageAction =
  | 'skill.create'
  | 'skill.import'
  | 'skill.scanProjects'
  | 'skill.updateFile'
  | 'skill.installUpdate'
  | 'skill.delete';

export async function assertMayManageSkills(ctx: Ctx, action: ManageAction, companyId: string): Promise<void> {
  await assertMay(ctx, action, { companyId });
}

/** An agent's skill selection is part of its configuration: whoever may PATCH the agent (`agent.syncSkills`). */
export async function assertMaySyncAgentSkills(ctx: Ctx, agent: Pick<Agent, 'id' | 'companyId'>): Promise<void> {
  await assertMay(ctx, 'agent.syncSkills', { companyId: agent.companyId, agentId: agent.id });
}

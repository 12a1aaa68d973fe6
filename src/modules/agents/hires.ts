// Agent hires (POST /api/companies/{companyId}/agent-hires). When the company requires board approval
// for new agents, the agent is created as a pending_approval draft and a hire_agent approval carries
// the configuration snapshot; approving it (approvals area) activates the draft.
import type { Company } from '../../core/access.ts';
import { recordActivity } from '../activity/record.ts';
import { createApproval, type Approval } from '../approvals/create.ts';
import type { Ctx } from '../../core/context.ts';
import type { Agent } from './present.ts';
import type { HireAgent } from './schemas.ts';
import { agentSnapshot, insertAgent } from './service.ts';

export async function hireAgent(ctx: Ctx, company: Company, input: HireAgent): Promise<{ agent: Agent; approval: Approval | null }> {
  const { sourceIssueId, sourceIssueIds, ...fields } = input;
  const issueIds = [...new Set([...(sourceIssueId ? [sourceIssueId] : []), ...(sourceIssueIds ?? [])])];
  const needsApproval = company.requireBoardApprovalForNewAgents;
  return ctx.db.transaction(async (tx) => {
    const agent = await insertAgent(tx, ctx.actor, company.id, fields, needsApproval ? 'pending_approval' : 'idle');
    const approval = needsApproval
      ? await createApproval(tx, ctx.actor, {
          companyId: company.id,
          type: 'hire_agent',
          payload: { agentId: agent.id, ...agentSnapshot(agent), sourceIssueIds: issueIds },
          issueIds,
        })
      : null;
    await recordActivity(tx, ctx.actor, {
      companyId: company.id,
      action: 'agent.hire_requested',
      entityType: 'agent',
      entityId: agent.id,
      details: { status: agent.status, approvalId: approval?.id ?? null, sourceIssueIds: issueIds },
    });
    return { agent, approval };
  });
}

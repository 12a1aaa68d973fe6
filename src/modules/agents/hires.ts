// Agent hires (POST /api/companies/{companyId}/agent-hires). When the company requires board approval
// for new agents, the agent is created as a pending_approval draft and a hire_agent approval carries
// the configuration snapshot; approving it (approvals area) activates the draft.
import type { Company } from '../../core/access.ts';
import { recordActivity } from '../activity/record.ts';
import { assertLinkedIssues, createApproval } from '../approvals/create.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import type { Agent, Approval } from '../../db/rows.ts';
import type { HireAgent } from './schemas.ts';
import { assertMayHire } from './policy.ts';
import { agentSnapshot, insertAgent } from './service.ts';

export async function hireAgent(
  ctx: Ctx,
  company: Company,
  input: HireAgent,
): Promise<{ agent: Agent; approval: Approval | null }> {
  await assertMayHire(ctx, company.id, input);
  const { sourceIssueId, sourceIssueIds, ...fields } = input;
  const issueIds = [...new Set([...(sourceIssueId ? [sourceIssueId] : []), ...(sourceIssueIds ?? [])])];
  const needsApproval = company.requireBoardApprovalForNewAgents;
  // The draft, its approval and the hire entry commit together: one transaction, the others join it.
  return inTransaction(ctx, async (tx, inner) => {
    // Checked on both paths: createApproval checks the ids it links itself, so only the path without
    // an approval checks here (the ids go straight into the activity log there). Either way a
    // refusal rolls back the draft agent with the rest of this transaction.
    if (!needsApproval) await assertLinkedIssues(tx, company.id, issueIds);
    const agent = await insertAgent(inner, company.id, fields, needsApproval ? 'pending_approval' : 'idle');
    const approval = needsApproval
      ? await createApproval(inner, {
          companyId: company.id,
          type: 'hire_agent',
          payload: {
            agentId: agent.id,
            ...agentSnapshot(agent, fields.budgetMonthlyCents ?? 0),
            sourceIssueIds: issueIds,
          },
          issueIds,
        })
      : null;
    await recordActivity(tx, inner.actor, {
      companyId: company.id,
      action: 'agent.hire_requested',
      entityType: 'agent',
      entityId: agent.id,
      details: { status: agent.status, approvalId: approval?.id ?? null, sourceIssueIds: issueIds },
    });
    return { agent, approval };
  });
}

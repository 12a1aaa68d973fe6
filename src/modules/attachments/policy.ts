// Who may delete an attachment: the `issue.deleteAttachment` row of the permission table
// (core/permissions.ts): the board, or the agent that uploaded it. Other agents of the company may
// read it but not remove another author's file. Uploading is `issue.attach` (any caller with access).
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';

export async function assertMayDeleteAttachment(
  ctx: Ctx,
  attachment: { companyId: string; uploadedBy: string | null },
): Promise<void> {
  await assertMay(ctx, 'issue.deleteAttachment', { companyId: attachment.companyId, agentId: attachment.uploadedBy });
}

export async function assertMayAttach(ctx: Ctx, issue: { companyId: string }): Promise<void> {
  await assertMay(ctx, 'issue.attach', { companyId: issue.companyId });
}

// Who may change issue documents: the `issue.putDocument` and `issue.deleteDocument` rows of the
// permission table (core/permissions.ts). Any caller with access to the issue's company reads and
// writes revisions; deleting a document with all its revisions is the board's (SPEC "Issues").
import type { Ctx } from '../../core/context.ts';
import { requireIssueAccess } from '../../core/issue-access.ts';
import { assertMay, resourceFor } from '../../core/permissions.ts';
import type { Issue } from '../../db/rows.ts';

export async function assertMayPutDocument(ctx: Ctx, issue: Issue): Promise<void> {
  await assertMay(ctx, 'issue.putDocument', { companyId: issue.companyId });
}

/** The issue whose document is deleted: an agent is refused before the issue is looked up, then 404/403. */
export function issueForDocumentDelete(ctx: Ctx, issueRef: string): Promise<Issue> {
  return resourceFor(
    ctx,
    'issue.deleteDocument',
    () => requireIssueAccess(ctx.db, ctx.actor, issueRef),
    (issue) => ({ companyId: issue.companyId }),
  );
}

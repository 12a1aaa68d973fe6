// The board's decision on an approval, one call for every place that decides one (the inbox and
// approvals rows, the approval page, the command palette): the same route, note and answer.
import { api, data } from '../../api/client';

export type Decision = 'approve' | 'reject' | 'request-revision';

/** Approves, rejects or asks for a revision; the note is sent only when it has text. Throws the server's refusal. */
export async function decideApproval(approvalId: string, decision: Decision, note = '') {
  const params = { path: { approvalId } };
  const body = note.trim() ? { decisionNote: note.trim() } : {};
  if (decision === 'approve') return data(await api.POST('/api/approvals/{approvalId}/approve', { params, body }));
  if (decision === 'reject') return data(await api.POST('/api/approvals/{approvalId}/reject', { params, body }));
  return data(await api.POST('/api/approvals/{approvalId}/request-revision', { params, body }));
}

// How the board names approval types and statuses; shared by the list, the detail and the inbox.
export const APPROVAL_TYPE_LABELS: Record<string, string> = {
  hire_agent: 'Hire an agent',
  approve_ceo_strategy: 'CEO strategy',
  budget_override_required: 'Budget override',
  request_board_approval: 'Board approval',
};

export const APPROVAL_STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  revision_requested: 'Revision requested',
  approved: 'Approved',
  rejected: 'Rejected',
};

export const approvalStatusBadge = (status: string): string =>
  ({
    pending: 'badge-accent',
    revision_requested: 'badge-warning',
    approved: 'badge-success',
    rejected: 'badge-danger',
  })[status] ?? '';

/** A one-line summary of a payload: a hire's agent name, else its title or summary. */
export function payloadSummary(payload: Record<string, unknown>): string | null {
  for (const field of ['name', 'title', 'summary']) {
    const value = payload[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

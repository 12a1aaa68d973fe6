// How the board names approval types, and a payload in one line; shared by the list, the detail and
// the inbox. Approval statuses are with the other status words (lib/statuses.ts).
export const APPROVAL_TYPE_LABELS: Record<string, string> = {
  hire_agent: 'Hire an agent',
  approve_ceo_strategy: 'CEO strategy',
  budget_override_required: 'Budget override',
  request_board_approval: 'Board approval',
};

/** A one-line summary of a payload: a hire's agent name, else its title or summary. */
export function payloadSummary(payload: Record<string, unknown>): string | null {
  for (const field of ['name', 'title', 'summary']) {
    const value = payload[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

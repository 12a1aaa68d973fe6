import type { AgentStatus } from './queries';

const TONE: Record<AgentStatus, string> = {
  active: 'badge-success',
  idle: '',
  running: 'badge-accent',
  paused: 'badge-warning',
  error: 'badge-danger',
  pending_approval: 'badge-warning',
  terminated: 'badge-danger',
};

const LABEL: Record<AgentStatus, string> = {
  active: 'Active',
  idle: 'Idle',
  running: 'Running',
  paused: 'Paused',
  error: 'Error',
  pending_approval: 'Pending approval',
  terminated: 'Terminated',
};

/** An agent's status, worded and coloured alike on every page; a paused agent says why (a budget stop, or the reason given). */
export function AgentStatusBadge({ status, pauseReason }: { status: AgentStatus; pauseReason?: string | null }) {
  const why = status === 'paused' && pauseReason ? (pauseReason === 'budget' ? ' by budget' : `: ${pauseReason}`) : '';
  return <span className={`badge ${TONE[status]}`}>{LABEL[status] + why}</span>;
}

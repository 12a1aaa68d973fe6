import { agentStatuses, type AgentStatus } from '../../lib/statuses';

/** An agent's status, worded and coloured alike on every page; a paused agent says why (a budget stop, or the reason given). */
export function AgentStatusBadge({ status, pauseReason }: { status: AgentStatus; pauseReason?: string | null }) {
  const why = status === 'paused' && pauseReason ? (pauseReason === 'budget' ? ' by budget' : `: ${pauseReason}`) : '';
  return <span className={`badge ${agentStatuses.tone(status)}`}>{agentStatuses.label(status) + why}</span>;
}

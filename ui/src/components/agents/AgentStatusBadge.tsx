import { agentStatuses, type AgentStatus } from '../../lib/statuses';
import { StatusPill } from '../display/StatusPill';

/** An agent's status, worded and toned alike on every page (a running one live, pulsing); a paused agent says why (a budget stop, or the reason given). */
export function AgentStatusBadge({ status, pauseReason }: { status: AgentStatus; pauseReason?: string | null }) {
  const why = status === 'paused' && pauseReason ? (pauseReason === 'budget' ? ' by budget' : `: ${pauseReason}`) : '';
  return <StatusPill tone={agentStatuses.tone(status)}>{agentStatuses.label(status) + why}</StatusPill>;
}

// Who asked for an approval, as the row's lead: the agent's avatar, or the board's mark.
import { Landmark } from 'lucide-react';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { Icon } from '../../components/ui/Icon';

export function RequesterAvatar({ agentId, name }: { agentId: string | null; name: string | null }) {
  if (agentId && name) return <AgentAvatar id={agentId} name={name} size={24} />;
  return (
    <span className="requester-board">
      <Icon icon={Landmark} size={14} label="The board" />
    </span>
  );
}

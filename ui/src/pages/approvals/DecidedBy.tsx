// Who decided an approval, in words, wherever a decided one is shown (the approvals rows, the approval
// page): "Approved by you" when the signed-in user decided it, else "Approved by a board member" (the
// API names the decider by user id only), with when and a link to the approval.
import { useQuery } from '@tanstack/react-query';
import { Check, MessageSquareReply, X, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { RelativeTime } from '../../components/display/RelativeTime';
import { Icon } from '../../components/ui/Icon';
import { meQuery } from '../../queries/instance';

const DONE: Record<string, { words: string; icon: LucideIcon }> = {
  approved: { words: 'Approved', icon: Check },
  rejected: { words: 'Rejected', icon: X },
  revision_requested: { words: 'Revision requested', icon: MessageSquareReply },
};

export interface Decided {
  id: string;
  status: string;
  decidedByUserId?: string | null;
  decidedAt: string | null;
}

/** "Approved by you" / "Rejected by a board member"; null while the approval waits on a decision. */
export function useDeciderWords(approval: Decided): string | null {
  const meId = useQuery(meQuery()).data?.user.id;
  const done = DONE[approval.status];
  if (!done || !approval.decidedAt) return null;
  const who = approval.decidedByUserId && approval.decidedByUserId === meId ? 'you' : 'a board member';
  return `${done.words} by ${who}`;
}

export function DecidedBy({
  companyId,
  approval,
  link = true,
}: {
  companyId: string;
  approval: Decided;
  /** The approval page itself leaves out the link to itself. */
  link?: boolean;
}) {
  const words = useDeciderWords(approval);
  const done = DONE[approval.status];
  if (!words || !done || !approval.decidedAt) return null;
  return (
    <p className={`decided-line decided-${approval.status}`}>
      <Icon icon={done.icon} size={14} />
      <span>{words}</span>
      <span aria-hidden="true">·</span>
      <RelativeTime at={approval.decidedAt} />
      {link && (
        <>
          <span aria-hidden="true">·</span>
          <Link to={`/c/${companyId}/approvals/${approval.id}`}>open the approval</Link>
        </>
      )}
    </p>
  );
}

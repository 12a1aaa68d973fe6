// Deciding an approval where it is listed (the inbox, the approvals list): Approve, Reject and
// Request revision, each a popover with an optional note (SPEC: `decisionNote` is optional on all
// three) and a confirm button. The outcome is handed to the page, which keeps the row and says what
// was decided (DecidedLine). A refusal (decided meanwhile: 422) is the server's words, and the lists
// are read again so the row shows where the approval stands now.
import { useMutation } from '@tanstack/react-query';
import { Check, MessageSquareReply, TrendingUp, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { RelativeTime } from '../../components/display/RelativeTime';
import { Button, type ButtonVariant } from '../../components/ui/Button';
import { Icon } from '../../components/ui/Icon';
import { Popover } from '../../components/ui/Popover';
import { useRefreshAfterDecision } from '../approval/refresh';
import { type Decision, decideApproval } from './decide';
import type { LucideIcon } from 'lucide-react';

export type { Decision } from './decide';

/** What the row says once decided: the decision, or the server's refusal, and where to go next. */
export type Outcome =
  | { decision: Decision; subject: { label: string; to: string }; at: string | null }
  | { raised: string; subject: { label: string; to: string } }
  | { refused: string };

const DECISIONS: Record<
  Decision,
  { label: string; done: string; variant: ButtonVariant; icon: LucideIcon; placeholder: string }
> = {
  approve: {
    label: 'Approve',
    done: 'Approved by you',
    variant: 'primary',
    icon: Check,
    placeholder: 'Why (optional)',
  },
  reject: {
    label: 'Reject',
    done: 'Rejected by you',
    variant: 'destructive',
    icon: X,
    placeholder: 'Why not (optional)',
  },
  'request-revision': {
    label: 'Request revision',
    done: 'Revision requested by you',
    variant: 'secondary',
    icon: MessageSquareReply,
    placeholder: 'What to change (optional)',
  },
};

interface Decidable {
  approvalId: string;
  status: string;
  /** Names the approval in the popovers' labels ("Approve Hire an agent: Scout"). */
  title: string;
  /** A budget override: approving resumes over budget, rejecting keeps the scope paused. */
  approveLabel?: string;
  rejectLabel?: string;
}

export function InlineDecision({
  companyId,
  approval,
  onOutcome,
}: {
  companyId: string;
  approval: Decidable;
  onOutcome: (outcome: Outcome) => void;
}) {
  const decisions: Decision[] =
    approval.status === 'pending' ? ['approve', 'request-revision', 'reject'] : ['approve', 'reject'];
  return (
    <div className="decision-buttons">
      {decisions.map((decision) => (
        <DecisionButton
          key={decision}
          companyId={companyId}
          approval={approval}
          decision={decision}
          onOutcome={onOutcome}
        />
      ))}
    </div>
  );
}

function DecisionButton({
  companyId,
  approval,
  decision,
  onOutcome,
}: {
  companyId: string;
  approval: Decidable;
  decision: Decision;
  onOutcome: (outcome: Outcome) => void;
}) {
  const look = DECISIONS[decision];
  const label =
    (decision === 'approve' && approval.approveLabel) || (decision === 'reject' && approval.rejectLabel) || look.label;
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const id = useId();
  const refresh = useRefreshAfterDecision(companyId);
  const decide = useMutation({
    mutationFn: () => decideApproval(approval.approvalId, decision, note),
    onSuccess: (decided) => {
      setOpen(false);
      onOutcome({ decision, subject: subjectOf(companyId, approval, decided), at: decided.decidedAt });
    },
    onError: (error) => {
      setOpen(false);
      onOutcome({ refused: errorMessage(error) });
    },
    onSettled: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    decide.mutate();
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label={`${label}: ${approval.title}`}
      align="end"
      className="decision-popover"
      trigger={
        <Button size="sm" variant={look.variant === 'primary' ? 'secondary' : 'ghost'} icon={look.icon}>
          {label}
        </Button>
      }
    >
      <form onSubmit={submit} className="decision-form">
        <div className="field">
          <label htmlFor={`${id}-note`}>Note</label>
          <textarea
            id={`${id}-note`}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            maxLength={2000}
            rows={3}
            placeholder={look.placeholder}
          />
        </div>
        <Button type="submit" size="sm" variant={look.variant} loading={decide.isPending}>
          {label}
        </Button>
      </form>
    </Popover>
  );
}

/** What a decision opens: a hire's agent (once hired), else the approval itself. */
function subjectOf(
  companyId: string,
  approval: Decidable,
  decided: { type: string; payload: Record<string, unknown> },
): { label: string; to: string } {
  const { agentId, name } = decided.payload;
  if (decided.type === 'hire_agent' && typeof agentId === 'string' && typeof name === 'string')
    return { label: name, to: `/c/${companyId}/agents/${agentId}` };
  return { label: approval.title, to: `/c/${companyId}/approvals/${approval.approvalId}` };
}

/** The row's line once decided here: "Approved by you · open Scout", a raise, or the refusal and what to do. */
export function DecidedLine({ outcome }: { outcome: Outcome }) {
  if ('refused' in outcome)
    return (
      <p className="decided-line decided-refused" role="alert">
        The decision was refused: {outcome.refused} The row shows where the approval stands now; open it to see who
        decided.
      </p>
    );
  const [icon, done] =
    'raised' in outcome
      ? [TrendingUp, `Budget raised to ${outcome.raised} by you`]
      : [DECISIONS[outcome.decision].icon, DECISIONS[outcome.decision].done];
  return (
    <p className="decided-line" role="status">
      <Icon icon={icon} size={14} />
      <span>{done}</span>
      {'at' in outcome && outcome.at && (
        <>
          <span aria-hidden="true">·</span>
          <RelativeTime at={outcome.at} />
        </>
      )}
      <span aria-hidden="true">·</span>
      <Link to={outcome.subject.to}>open {outcome.subject.label}</Link>
    </p>
  );
}

// The board's decision: approve, reject or request a revision, each with an optional note; an
// approval waiting on a revision can also be resubmitted by the board (ResubmitForm). A decision
// refused because the approval was decided meanwhile (422, or 409) says who decided, when, and where
// the approval stands now; the approval is read again on its own, so nothing asks for a reload. The
// API gives the decider's user id only, no name: they are "another board member".
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fullTime, timeAgo } from '../../lib/format';
import { approvalStatuses, type ApprovalStatus } from '../../lib/statuses';
import { type Decision, decideApproval } from '../approvals/decide';
import { DecidedBy } from '../approvals/DecidedBy';
import { useRefreshAfterDecision } from './refresh';
import { ResubmitForm } from './ResubmitForm';

interface Approval {
  id: string;
  status: ApprovalStatus;
  decisionNote: string | null;
  decidedAt: string | null;
  decidedByUserId?: string | null;
  payload: Record<string, unknown>;
}

export function DecisionPanel({ companyId, approval }: { companyId: string; approval: Approval }) {
  const [note, setNote] = useState('');
  const refresh = useRefreshAfterDecision(companyId);
  const decide = useMutation({
    mutationFn: (decision: Decision) => decideApproval(approval.id, decision, note),
    onSuccess: () => setNote(''),
    onSettled: refresh,
  });
  const open = approval.status === 'pending' || approval.status === 'revision_requested';

  return (
    <section className="card approval-decision" aria-labelledby="approval-decision">
      <h2 id="approval-decision">Decision</h2>
      <DecidedBy companyId={companyId} approval={approval} link={false} />
      {approval.decidedAt && approval.decisionNote && (
        <p>
          Note: <q>{approval.decisionNote}</q>
        </p>
      )}
      {decide.isError &&
        (isStale(decide.error) ? (
          <StaleDecision approval={approval} />
        ) : (
          <ErrorNotice error={decide.error} title="The decision was refused" />
        ))}
      {decide.isSuccess && !decide.isPending && (
        <p role="status" className="muted">
          Decision recorded.
        </p>
      )}
      {open ? (
        <form onSubmit={(event) => event.preventDefault()}>
          <div className="field">
            <label htmlFor="decision-note">Decision note</label>
            <textarea
              id="decision-note"
              value={note}
              onChange={(event) => setNote(event.target.value)}
              maxLength={2000}
              placeholder="Why, or what to change (optional)"
            />
          </div>
          <div className="page-actions">
            <button
              type="button"
              className="primary"
              disabled={decide.isPending}
              onClick={() => decide.mutate('approve')}
            >
              Approve
            </button>
            {approval.status === 'pending' && (
              <button type="button" disabled={decide.isPending} onClick={() => decide.mutate('request-revision')}>
                Request revision
              </button>
            )}
            <button
              type="button"
              className="danger"
              disabled={decide.isPending}
              onClick={() => decide.mutate('reject')}
            >
              Reject
            </button>
          </div>
        </form>
      ) : (
        !approval.decidedAt && <p className="muted">No decision is open.</p>
      )}
      {approval.status === 'revision_requested' && (
        <ResubmitForm
          key={approval.decidedAt}
          companyId={companyId}
          approvalId={approval.id}
          payload={approval.payload}
        />
      )}
    </section>
  );
}

/** A decision refused because the approval's status no longer allows it: someone decided first. */
const isStale = (error: unknown) => error instanceof ApiError && (error.status === 422 || error.status === 409);

function StaleDecision({ approval }: { approval: Approval }) {
  const who = approval.decidedByUserId ? 'another board member' : 'someone else';
  return (
    <div className="notice notice-warning" role="alert">
      <strong>The decision was refused: {who} decided first.</strong>{' '}
      {approval.decidedAt ? (
        <>
          They decided{' '}
          <time dateTime={approval.decidedAt} title={fullTime(approval.decidedAt)}>
            {timeAgo(approval.decidedAt)}
          </time>
          ; the approval is now <strong>{approvalStatuses.label(approval.status).toLowerCase()}</strong>.
        </>
      ) : (
        <>Its status changed meanwhile; it is now {approvalStatuses.label(approval.status).toLowerCase()}.</>
      )}{' '}
      The page shows it as it stands: decide again below if it is still open.
    </div>
  );
}

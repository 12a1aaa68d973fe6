// The company's approvals, newest first, one status at a time (?status=, default pending) or all.
// Open ones are decided in place (InlineDecision); a budget override reads as a sentence and can be
// answered with a raise of the budget instead.
import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState } from '../../components/display/EmptyState';
import { ErrorState } from '../../components/display/ErrorState';
import { RelativeTime } from '../../components/display/RelativeTime';
import { StatusPill } from '../../components/display/StatusPill';
import { RaiseBudgetButton } from '../../components/budgets/ResolveIncidentButton';
import { budgetAmount } from '../../components/budgets/amounts';
import { APPROVAL_TYPE_LABELS, payloadSummary } from '../../lib/approval-labels';
import { approvalStatuses, type ApprovalStatus } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { APPROVALS_LIMIT, approvalsQuery } from '../../queries/approvals';
import { budgetFactsOf, budgetSentence } from './budget-sentence';
import { DecidedBy } from './DecidedBy';
import { DecidedLine, InlineDecision, type Outcome } from './InlineDecision';
import { useOutcomes } from './useOutcomes';
import { RequesterAvatar } from './RequesterAvatar';

type View = ApprovalStatus | 'all';
const VIEWS: View[] = [...approvalStatuses.list, 'all'];
/** One listed approval, as the list route returns it. */
type Approval = Awaited<ReturnType<NonNullable<ReturnType<typeof approvalsQuery>['queryFn']>>>[number];
const keyOf = (approval: Approval) => approval.id;

export function ApprovalsPage() {
  const { companyId = '' } = useParams();
  const [search] = useSearchParams();
  const asked = search.get('status') ?? '';
  const view: View = asked === 'all' || approvalStatuses.is(asked) ? asked : 'pending';
  const { knownName, nameOf: agentName } = useAgentNames(companyId);
  const approvals = useQuery(approvalsQuery(companyId, view));
  const outcomes = useOutcomes<Approval, Outcome>(keyOf);
  const rows = outcomes.withDecided(approvals.data ?? []);

  return (
    <div className="page">
      <PageHeader title="Approvals">
        <p className="muted">Hires, strategies, budget overrides and other requests that wait on a board decision.</p>
      </PageHeader>
      <nav className="tabs" aria-label="Approval status">
        {VIEWS.map((status) => (
          <Link
            key={status}
            to={status === 'pending' ? '?' : `?status=${status}`}
            aria-current={status === view ? 'page' : undefined}
            className={status === view ? 'active' : undefined}
          >
            {status === 'all' ? 'All' : approvalStatuses.label(status)}
          </Link>
        ))}
      </nav>
      {approvals.isPending ? (
        <Loading label="Loading approvals" />
      ) : approvals.isError ? (
        <ErrorState error={approvals.error} title="Approvals could not be loaded" retry={() => approvals.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={ShieldCheck}
          title={view === 'all' ? 'No approvals yet' : `No ${approvalStatuses.label(view).toLowerCase()} approvals`}
        >
          {view === 'all'
            ? 'Agents file them when they want to hire or need a board decision.'
            : 'Look at all approvals with the "All" tab.'}
        </EmptyState>
      ) : (
        <ul
          className="inbox-list approval-list"
          aria-label={`${view === 'all' ? 'All approvals' : `${approvalStatuses.label(view)} approvals`}, newest first`}
        >
          {rows.map((approval, index) => {
            const budget =
              approval.type === 'budget_override_required'
                ? budgetFactsOf(approval.payload, (scopeType, scopeId) =>
                    scopeType === 'agent' ? (knownName(scopeId) ?? null) : null,
                  )
                : null;
            const type = APPROVAL_TYPE_LABELS[approval.type] ?? 'Approval';
            const summary = budget ? budgetSentence(budget) : payloadSummary(approval.payload);
            const title = summary ? `${type}: ${summary}` : type;
            const requester = approval.requestedByAgentId ? agentName(approval.requestedByAgentId) : null;
            const outcome = outcomes.outcomeOf(approval);
            const decided = outcome && !('refused' in outcome);
            const open = approval.status === 'pending' || approval.status === 'revision_requested';
            const record = (next: Outcome) => outcomes.record(approval, index, next);
            return (
              <li key={approval.id} className="inbox-item">
                <span className="inbox-lead">
                  <RequesterAvatar agentId={approval.requestedByAgentId} name={requester} />
                </span>
                <div className="inbox-body">
                  <div className="inbox-title">
                    <Link to={`/c/${companyId}/approvals/${approval.id}`}>{title}</Link>
                    {!decided && (
                      <StatusPill tone={approvalStatuses.tone(approval.status)}>
                        {approvalStatuses.label(approval.status)}
                      </StatusPill>
                    )}
                  </div>
                  <div className="inbox-meta muted">
                    {budget &&
                      `Limit ${budgetAmount(budget.metric, budget.amount)} · spent ${budgetAmount(budget.metric, budget.observed)} · `}
                    {requester ? `requested by ${requester}` : 'requested by the board'} ·{' '}
                    <RelativeTime at={approval.createdAt} />
                  </div>
                  {outcome ? (
                    <DecidedLine outcome={outcome} />
                  ) : (
                    <DecidedBy companyId={companyId} approval={approval} />
                  )}
                </div>
                {open && !decided && (
                  <div className="inbox-actions">
                    {budget && approval.status === 'pending' && (
                      <RaiseBudgetButton
                        companyId={companyId}
                        item={{ ...budget, incidentKind: 'hard' }}
                        onResolved={(amount) =>
                          record({
                            raised: budgetAmount(budget.metric, amount),
                            subject: { label: title, to: `/c/${companyId}/approvals/${approval.id}` },
                          })
                        }
                      />
                    )}
                    <InlineDecision
                      companyId={companyId}
                      approval={{
                        approvalId: approval.id,
                        status: approval.status,
                        title,
                        ...(budget && { approveLabel: 'Resume over budget', rejectLabel: 'Keep paused' }),
                      }}
                      onOutcome={record}
                    />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {approvals.data && approvals.data.length === APPROVALS_LIMIT && (
        <p className="muted">Showing the newest {APPROVALS_LIMIT}.</p>
      )}
    </div>
  );
}

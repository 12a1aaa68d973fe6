// The company's approvals, newest first, one status at a time (?status=, default pending) or all.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { fullTime, timeAgo } from '../../lib/format';
import { APPROVAL_TYPE_LABELS, payloadSummary } from '../../lib/approval-labels';
import { approvalStatuses, type ApprovalStatus } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { APPROVALS_LIMIT, approvalsQuery } from '../../queries/approvals';
import { StatusPill } from '../../components/display/StatusPill';

type View = ApprovalStatus | 'all';
const VIEWS: View[] = [...approvalStatuses.list, 'all'];

export function ApprovalsPage() {
  const { companyId = '' } = useParams();
  const [search] = useSearchParams();
  const asked = search.get('status') ?? '';
  const view: View = asked === 'all' || approvalStatuses.is(asked) ? asked : 'pending';
  const { nameOf: agentName } = useAgentNames(companyId);
  const approvals = useQuery(approvalsQuery(companyId, view));

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
        <ErrorNotice error={approvals.error} title="Approvals could not be loaded" retry={() => approvals.refetch()} />
      ) : approvals.data.length === 0 ? (
        <p className="inbox-empty">
          {view === 'all'
            ? 'No approvals yet: agents file them when they want to hire or need a board decision.'
            : `No ${approvalStatuses.label(view).toLowerCase()} approvals.`}
        </p>
      ) : (
        <table className="table">
          <caption className="inbox-sr">
            {view === 'all' ? 'All approvals' : `${approvalStatuses.label(view)} approvals`}, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Requested by</th>
              <th scope="col">Status</th>
              <th scope="col">Filed</th>
            </tr>
          </thead>
          <tbody>
            {approvals.data.map((approval) => {
              const summary = payloadSummary(approval.payload);
              return (
                <tr key={approval.id}>
                  <td>
                    <Link to={`/c/${companyId}/approvals/${approval.id}`}>
                      {APPROVAL_TYPE_LABELS[approval.type]}
                      {summary ? `: ${summary}` : ''}
                    </Link>
                  </td>
                  <td>{approval.requestedByAgentId ? agentName(approval.requestedByAgentId) : 'the board'}</td>
                  <td>
                    <StatusPill tone={approvalStatuses.tone(approval.status)}>
                      {approvalStatuses.label(approval.status)}
                    </StatusPill>
                  </td>
                  <td>
                    <time dateTime={approval.createdAt} title={fullTime(approval.createdAt)}>
                      {timeAgo(approval.createdAt)}
                    </time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {approvals.data && approvals.data.length === APPROVALS_LIMIT && (
        <p className="muted">Showing the newest {APPROVALS_LIMIT}.</p>
      )}
    </div>
  );
}

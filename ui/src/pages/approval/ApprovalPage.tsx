// One approval: what is asked (the payload, readable; a hire shows the agent it would create), who
// asked, the linked issues, the conversation, and the decision with a note.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { APPROVAL_TYPE_LABELS, payloadSummary } from '../../lib/approval-labels';
import { fullTime, timeAgo } from '../../lib/format';
import { approvalStatuses, issueStatuses } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { approvalIssuesQuery, approvalQuery } from '../../queries/approvals';
import { ApprovalComments } from './ApprovalComments';
import { DecisionPanel } from './DecisionPanel';
import { PayloadView } from './PayloadView';
import { StatusPill } from '../../components/display/StatusPill';

export function ApprovalPage() {
  const { companyId = '', approvalId = '' } = useParams();
  const { nameOf: agentName } = useAgentNames(companyId);
  const approval = useQuery(approvalQuery(companyId, approvalId));

  if (approval.isPending) return <Loading label="Loading the approval" />;
  if (approval.isError)
    return (
      <div className="page">
        <PageHeader title="Approval" />
        <ErrorNotice error={approval.error} title="The approval could not be loaded" retry={() => approval.refetch()} />
      </div>
    );

  const a = approval.data;
  const summary = payloadSummary(a.payload);
  const title = `${APPROVAL_TYPE_LABELS[a.type]}${summary ? `: ${summary}` : ''}`;
  return (
    <div className="page">
      <p className="muted">
        <Link to={`/c/${companyId}/approvals`}>Approvals</Link> /
      </p>
      <PageHeader title={title}>
        <p className="muted">
          <StatusPill tone={approvalStatuses.tone(a.status)}>{approvalStatuses.label(a.status)}</StatusPill> requested
          by{' '}
          {a.requestedByAgentId ? (
            <Link to={`/c/${companyId}/agents/${a.requestedByAgentId}`}>{agentName(a.requestedByAgentId)}</Link>
          ) : (
            'the board'
          )}{' '}
          <time dateTime={a.createdAt} title={fullTime(a.createdAt)}>
            {timeAgo(a.createdAt)}
          </time>
        </p>
      </PageHeader>
      <div className="approval-layout">
        <div>
          <section className="approval-section" aria-labelledby="approval-payload">
            <h2 id="approval-payload">{a.type === 'hire_agent' ? 'The agent it would create' : 'Request'}</h2>
            <PayloadView
              type={a.type}
              status={a.status}
              payload={a.payload}
              agentName={agentName}
              companyId={companyId}
            />
          </section>
          <LinkedIssues companyId={companyId} approvalId={a.id} />
          <ApprovalComments companyId={companyId} approvalId={a.id} agentName={agentName} />
        </div>
        <DecisionPanel companyId={companyId} approval={a} />
      </div>
    </div>
  );
}

function LinkedIssues({ companyId, approvalId }: { companyId: string; approvalId: string }) {
  const issues = useQuery(approvalIssuesQuery(companyId, approvalId));
  return (
    <section className="approval-section" aria-labelledby="approval-issues">
      <h2 id="approval-issues">Linked issues</h2>
      {issues.isPending ? (
        <Loading label="Loading linked issues" />
      ) : issues.isError ? (
        <ErrorNotice error={issues.error} title="Linked issues could not be loaded" retry={() => issues.refetch()} />
      ) : issues.data.length === 0 ? (
        <p className="muted">No linked issues.</p>
      ) : (
        <ul>
          {issues.data.map((issue) => (
            <li key={issue.id}>
              <Link to={`/c/${companyId}/issues/${issue.id}`}>
                {issue.identifier} {issue.title}
              </Link>{' '}
              <StatusPill tone={issueStatuses.tone(issue.status)}>{issueStatuses.label(issue.status)}</StatusPill>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// One inbox item: what it is, a link to it (opening it marks it read), and its actions.
import { Link } from 'react-router';
import { APPROVAL_TYPE_LABELS } from '../../lib/approval-labels';
import { cents, fullTime, timeAgo } from '../../lib/format';
import { approvalStatuses, issuePriorities } from '../../lib/statuses';
import type { InboxItem } from '../../queries/inbox';
import { ResolveIncidentButton } from '../../components/budgets/ResolveIncidentButton';
import { RetryRunButton } from './RetryRunButton';
import { RunFailure } from '../../components/runs/RunFailure';
import { runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { StatusPill } from '../../components/display/StatusPill';
import { runHref } from '../../components/runs/run-href';

export function InboxRow({ companyId, item, onRead }: { companyId: string; item: InboxItem; onRead: () => void }) {
  const { kind, title, to, meta, badge } = describe(companyId, item);
  return (
    <li className={`inbox-item${item.read ? '' : ' inbox-unread'}`}>
      <span className="inbox-dot" aria-hidden="true" />
      <div className="inbox-body">
        <div className="inbox-title">
          <span className="inbox-kind">{kind}</span>
          <Link to={to} onClick={() => !item.read && onRead()}>
            {title}
          </Link>
          {!item.read && <span className="inbox-sr">(unread)</span>}
          {badge}
        </div>
        {item.kind === 'run' && <RunFailure run={item} />}
        <div className="inbox-meta muted">
          {meta}
          {meta && ' · '}
          <time dateTime={new Date(item.at).toISOString()} title={fullTime(item.at)}>
            {timeAgo(item.at)}
          </time>
        </div>
      </div>
      <div className="inbox-actions">
        {item.kind === 'run' && <RetryRunButton item={item} />}
        {item.kind === 'budget_incident' && <ResolveIncidentButton companyId={companyId} item={item} />}
        {!item.read && (
          <button type="button" onClick={onRead} aria-label={`Mark read: ${title}`}>
            Mark read
          </button>
        )}
      </div>
    </li>
  );
}

function describe(companyId: string, item: InboxItem) {
  const base = `/c/${companyId}`;
  switch (item.kind) {
    case 'approval':
      return {
        kind: 'Approval',
        title: `${APPROVAL_TYPE_LABELS[item.approvalType] ?? item.approvalType}${item.summary ? `: ${item.summary}` : ''}`,
        to: `${base}/approvals/${item.approvalId}`,
        meta: item.requestedByAgentName ? `requested by ${item.requestedByAgentName}` : 'requested by the board',
        badge:
          item.status === 'revision_requested' ? (
            <StatusPill tone={approvalStatuses.tone(item.status)}>{approvalStatuses.label(item.status)}</StatusPill>
          ) : null,
      };
    case 'run':
      return {
        kind: `Run ${runStatusLabel(item.status).toLowerCase()}`,
        title: item.issueIdentifier
          ? `${item.agentName} on ${item.issueIdentifier} ${item.issueTitle ?? ''}`.trim()
          : item.agentName,
        to: runHref(companyId, item.runId),
        // Why it ended, in words, shows under the title (RunFailure).
        meta: '',
        badge: <StatusPill tone={runStatusTone(item.status)}>{runStatusLabel(item.status)}</StatusPill>,
      };
    case 'budget_incident': {
      const amount = (value: number) =>
        item.metric === 'billed_cents' ? cents(value) : `${value.toLocaleString()} ${item.metric}`;
      return {
        kind: item.incidentKind === 'hard' ? 'Budget stop' : 'Budget warning',
        title: `${item.scopeName ?? item.scopeType} (${item.scopeType})`,
        to: item.approvalId ? `${base}/approvals/${item.approvalId}` : scopeLink(base, item.scopeType, item.scopeId),
        meta: `${amount(item.observed)} of ${amount(item.amount)}`,
        badge: (
          <span className={`badge ${item.incidentKind === 'hard' ? 'badge-danger' : 'badge-warning'}`}>
            {item.incidentKind === 'hard' ? 'paused' : 'warning'}
          </span>
        ),
      };
    }
    case 'issue':
      return {
        kind: 'Issue',
        title: `${item.identifier} ${item.title}`,
        to: `${base}/issues/${item.issueId}`,
        meta: `${issuePriorities.label(item.priority)} priority`,
        badge: (
          <span className={`badge ${item.reason === 'blocked' ? 'badge-warning' : 'badge-accent'}`}>
            {item.reason === 'blocked' ? 'blocked' : 'assigned to you'}
          </span>
        ),
      };
  }
}

function scopeLink(base: string, scopeType: string, scopeId: string): string {
  if (scopeType === 'agent') return `${base}/agents/${scopeId}`;
  if (scopeType === 'project') return `${base}/issues?projectId=${scopeId}`;
  return `${base}/dashboard`;
}

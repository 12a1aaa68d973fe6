// One inbox item: what it is in words, a link to it (opening it marks it read), and its decisions in
// place (approve/reject/request revision, retry, raise budget). A row decided here says so instead.
import { Link } from 'react-router';
import { APPROVAL_TYPE_LABELS } from '../../lib/approval-labels';
import { approvalStatuses, issuePriorities } from '../../lib/statuses';
import type { InboxItem } from '../../queries/inbox';
import { RaiseBudgetButton } from '../../components/budgets/ResolveIncidentButton';
import { budgetAmount } from '../../components/budgets/amounts';
import { RetryRunButton } from './RetryRunButton';
import { RunFailure } from '../../components/runs/RunFailure';
import { runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { StatusPill } from '../../components/display/StatusPill';
import { StatusIcon } from '../../components/display/StatusIcon';
import { PriorityIcon } from '../../components/display/PriorityIcon';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { RelativeTime } from '../../components/display/RelativeTime';
import { Button } from '../../components/ui/Button';
import { runHref } from '../../components/runs/run-href';
import { budgetSentence } from '../approvals/budget-sentence';
import { RequesterAvatar } from '../approvals/RequesterAvatar';
import { DecidedLine, InlineDecision, type Outcome } from '../approvals/InlineDecision';

export function InboxRow({
  companyId,
  item,
  windowKey,
  outcome,
  onOutcome,
  onRead,
}: {
  companyId: string;
  item: InboxItem;
  /** A budget incident's window (`YYYY-MM` or `lifetime`), when the budgets overview knows it. */
  windowKey?: string;
  outcome: Outcome | undefined;
  onOutcome: (outcome: Outcome) => void;
  onRead: () => void;
}) {
  const { kind, title, to, meta, badge, lead } = describe(companyId, item, windowKey);
  const decided = outcome && !('refused' in outcome);
  return (
    <li className={`inbox-item${item.read || decided ? '' : ' inbox-unread'}`}>
      <span className="inbox-dot" aria-hidden="true" />
      <span className="inbox-lead">{lead}</span>
      <div className="inbox-body">
        <div className="inbox-title">
          <span className="inbox-kind">{kind}</span>
          <Link to={to} onClick={() => !item.read && onRead()}>
            {title}
          </Link>
          {!item.read && !decided && <span className="visually-hidden">(unread)</span>}
          {badge}
        </div>
        {item.kind === 'run' && <RunFailure run={item} />}
        <div className="inbox-meta muted">
          {meta}
          {meta && ' · '}
          <RelativeTime at={new Date(item.at).toISOString()} />
        </div>
        {outcome && <DecidedLine outcome={outcome} />}
      </div>
      {!decided && (
        <div className="inbox-actions">
          {item.kind === 'approval' && (
            <InlineDecision
              companyId={companyId}
              approval={{ approvalId: item.approvalId, status: item.status, title }}
              onOutcome={onOutcome}
            />
          )}
          {item.kind === 'run' && <RetryRunButton item={item} />}
          {item.kind === 'budget_incident' && (
            <RaiseBudgetButton
              companyId={companyId}
              item={item}
              onResolved={(amount) =>
                onOutcome({ raised: budgetAmount(item.metric, amount), subject: { label: scopeLabel(item), to } })
              }
            />
          )}
          {!item.read && (
            <Button size="sm" variant="ghost" onClick={onRead} aria-label={`Mark read: ${title}`}>
              Mark read
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

const scopeLabel = (item: Extract<InboxItem, { kind: 'budget_incident' }>) =>
  item.scopeType === 'company' ? 'the company' : (item.scopeName ?? `the ${item.scopeType}`);

function describe(companyId: string, item: InboxItem, windowKey: string | undefined) {
  const base = `/c/${companyId}`;
  switch (item.kind) {
    case 'approval': {
      const type = APPROVAL_TYPE_LABELS[item.approvalType] ?? 'Approval';
      // A budget override's summary carries raw amounts; its incident's row says it in words.
      const summary = item.approvalType === 'budget_override_required' ? null : item.summary;
      const requester = item.requestedByAgentName;
      return {
        kind: 'Approval',
        title: summary ? `${type}: ${summary}` : type,
        to: `${base}/approvals/${item.approvalId}`,
        meta: requester ? `requested by ${requester}` : 'requested by the board',
        lead: <RequesterAvatar agentId={item.requestedByAgentId} name={requester} />,
        badge:
          item.status === 'revision_requested' ? (
            <StatusPill tone={approvalStatuses.tone(item.status)}>{approvalStatuses.label(item.status)}</StatusPill>
          ) : null,
      };
    }
    case 'run':
      return {
        kind: `Run ${runStatusLabel(item.status).toLowerCase()}`,
        title: item.issueIdentifier
          ? `${item.agentName} on ${item.issueIdentifier} ${item.issueTitle ?? ''}`.trim()
          : item.agentName,
        to: runHref(companyId, item.runId),
        // Why it ended, in words, shows under the title (RunFailure).
        meta: '',
        lead: <StatusIcon kind="run" status={item.status} />,
        badge: <StatusPill tone={runStatusTone(item.status)}>{runStatusLabel(item.status)}</StatusPill>,
      };
    case 'budget_incident': {
      const hard = item.incidentKind === 'hard';
      return {
        kind: hard ? 'Budget stop' : 'Budget warning',
        title: budgetSentence({ ...item, windowKey }),
        to: item.approvalId ? `${base}/approvals/${item.approvalId}` : scopeLink(base, item.scopeType, item.scopeId),
        meta: `Limit ${budgetAmount(item.metric, item.amount)} · spent ${budgetAmount(item.metric, item.observed)}`,
        lead:
          item.scopeType === 'agent' ? (
            <AgentAvatar id={item.scopeId} name={item.scopeName ?? 'Agent'} size={24} />
          ) : (
            <StatusIcon kind="agent" status="paused" />
          ),
        badge: <StatusPill tone={hard ? 'danger' : 'warning'}>{hard ? 'Paused' : 'Warning'}</StatusPill>,
      };
    }
    case 'issue':
      return {
        kind: 'Issue',
        title: `${item.identifier} ${item.title}`,
        to: `${base}/issues/${item.issueId}`,
        meta: `${issuePriorities.label(item.priority)} priority`,
        lead:
          item.reason === 'blocked' ? (
            <StatusIcon kind="issue" status="blocked" />
          ) : (
            <PriorityIcon priority={item.priority} />
          ),
        badge: (
          <StatusPill tone={item.reason === 'blocked' ? 'warning' : 'info'}>
            {item.reason === 'blocked' ? 'Blocked' : 'Assigned to you'}
          </StatusPill>
        ),
      };
  }
}

function scopeLink(base: string, scopeType: string, scopeId: string): string {
  if (scopeType === 'agent') return `${base}/agents/${scopeId}`;
  if (scopeType === 'project') return `${base}/issues?projectId=${scopeId}`;
  return `${base}/dashboard`;
}

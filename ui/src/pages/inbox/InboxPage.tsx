// What waits on the board: approvals to decide, failed runs to retry, budget incidents, blocked or
// assigned issues, each decided in place. The unread view is the work list; marking an item read (or
// opening it) moves it to "All" only. The view is in the URL (?view=all). A budget override approval
// is shown by its incident's row (the same decision, in words), not twice.
import { useQuery } from '@tanstack/react-query';
import { CheckCheck, Inbox } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState } from '../../components/display/EmptyState';
import { ErrorState } from '../../components/display/ErrorState';
import { Button } from '../../components/ui/Button';
import { budgetOverviewQuery } from '../../queries/budgets';
import { type InboxItem, inboxQuery } from '../../queries/inbox';
import type { Outcome } from '../approvals/InlineDecision';
import { useOutcomes } from '../approvals/useOutcomes';
import { InboxRow } from './InboxRow';
import { useMarkRead } from './useMarkRead';

const keyOf = (item: InboxItem) => item.key;

export function InboxPage() {
  const { companyId = '' } = useParams();
  const [search] = useSearchParams();
  const showAll = search.get('view') === 'all';
  const inbox = useQuery(inboxQuery(companyId));
  // Only for the words of an incident's window ("monthly"); the rows do without it.
  const budgets = useQuery(budgetOverviewQuery(companyId));
  const markRead = useMarkRead(companyId);
  const outcomes = useOutcomes<InboxItem, Outcome>(keyOf);

  const items = withoutFoldedOverrides(inbox.data?.items ?? []);
  const unread = items.filter((item) => !item.read);
  const shown = outcomes.withDecided(showAll ? items : unread);
  const windowOf = new Map(budgets.data?.activeIncidents.map((incident) => [incident.id, incident.windowKey]));

  return (
    <div className="page inbox-page">
      <PageHeader
        title="Inbox"
        actions={
          unread.length > 0 && (
            <Button
              icon={CheckCheck}
              onClick={() => markRead.mutate(unread.map((item) => item.key))}
              disabled={markRead.isPending}
            >
              Mark all read
            </Button>
          )
        }
      >
        <p className="muted">
          Approvals to decide, failed runs, budget incidents, and issues that are blocked or assigned to you.
        </p>
      </PageHeader>
      <nav className="tabs" aria-label="Inbox views">
        <Link to="?" className={showAll ? undefined : 'active'} aria-current={showAll ? undefined : 'page'}>
          Unread{inbox.data ? ` (${unread.length})` : ''}
        </Link>
        <Link to="?view=all" className={showAll ? 'active' : undefined} aria-current={showAll ? 'page' : undefined}>
          All{inbox.data ? ` (${items.length})` : ''}
        </Link>
      </nav>
      {markRead.isError && (
        <ErrorNotice error={markRead.error} title="Could not mark read" retry={() => markRead.reset()} />
      )}
      {inbox.isPending ? (
        <Loading label="Loading the inbox" />
      ) : inbox.isError ? (
        <ErrorState error={inbox.error} title="The inbox could not be loaded" retry={() => inbox.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyInbox showAll={showAll} anyRead={items.length > 0} />
      ) : (
        <ul className="inbox-list" aria-label={showAll ? 'All inbox items' : 'Unread inbox items'}>
          {shown.map((item, index) => (
            <InboxRow
              key={item.key}
              companyId={companyId}
              item={item}
              windowKey={item.kind === 'budget_incident' ? windowOf.get(item.incidentId) : undefined}
              outcome={outcomes.outcomeOf(item)}
              onOutcome={(outcome) => outcomes.record(item, index, outcome)}
              onRead={() => markRead.mutate([item.key])}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/** Budget override approvals whose incident is listed too: the incident's row decides both. */
function withoutFoldedOverrides(items: InboxItem[]): InboxItem[] {
  const incidentApprovals = new Set(
    items.flatMap((item) => (item.kind === 'budget_incident' && item.approvalId ? [item.approvalId] : [])),
  );
  return items.filter((item) => !(item.kind === 'approval' && incidentApprovals.has(item.approvalId)));
}

function EmptyInbox({ showAll, anyRead }: { showAll: boolean; anyRead: boolean }) {
  if (!showAll && anyRead)
    return (
      <EmptyState icon={CheckCheck} title="All caught up">
        Everything here is read. <Link to="?view=all">Show all items</Link>
      </EmptyState>
    );
  return (
    <EmptyState icon={Inbox} title="Nothing waits on the board">
      No pending approvals, failed runs, budget incidents, or blocked issues.
    </EmptyState>
  );
}

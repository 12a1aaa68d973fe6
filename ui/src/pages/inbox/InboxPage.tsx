// What waits on the board: approvals to decide, failed runs to retry, budget incidents, blocked or
// assigned issues. The unread view is the work list; marking an item read (or opening it) moves it
// to "All" only. The view is in the URL (?view=all).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { InboxRow } from './InboxRow';
import { inboxQuery } from '../../queries/inbox';
import { useMarkRead } from './useMarkRead';

export function InboxPage() {
  const { companyId = '' } = useParams();
  const [search] = useSearchParams();
  const showAll = search.get('view') === 'all';
  const inbox = useQuery(inboxQuery(companyId));
  const markRead = useMarkRead(companyId);

  const items = inbox.data?.items ?? [];
  const unread = items.filter((item) => !item.read);
  const shown = showAll ? items : unread;

  return (
    <div className="page inbox-page">
      <PageHeader
        title="Inbox"
        actions={
          unread.length > 0 && (
            <button
              type="button"
              onClick={() => markRead.mutate(unread.map((item) => item.key))}
              disabled={markRead.isPending}
            >
              Mark all read
            </button>
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
        <ErrorNotice error={inbox.error} title="The inbox could not be loaded" retry={() => inbox.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyInbox showAll={showAll} anyRead={items.length > 0} />
      ) : (
        <ul className="inbox-list" aria-label={showAll ? 'All inbox items' : 'Unread inbox items'}>
          {shown.map((item) => (
            <InboxRow key={item.key} companyId={companyId} item={item} onRead={() => markRead.mutate([item.key])} />
          ))}
        </ul>
      )}
    </div>
  );
}

function EmptyInbox({ showAll, anyRead }: { showAll: boolean; anyRead: boolean }) {
  if (!showAll && anyRead)
    return (
      <p className="inbox-empty">
        All caught up: everything here is read. <Link to="?view=all">Show all items</Link>
      </p>
    );
  return (
    <p className="inbox-empty">
      Nothing waits on the board: no pending approvals, failed runs, budget incidents, or blocked issues.
    </p>
  );
}

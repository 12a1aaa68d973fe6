// /c/:companyId/issues: the company's issues as a list or a board, filtered and grouped from the
// address, live through the 'issues' resource of its query keys.
import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { issuePagesQuery } from '../../queries/issues';
import { CreateIssueDialog } from './CreateIssueDialog';
import { FilterBar } from './FilterBar';
import { IssueList } from './IssueList';
import { useNames, type Names } from './queries';
import { hasFilters, listQuery, useIssuesView, type IssuesView } from './url-state';

// The board (with its drag and menu code) is a chunk of its own: the list, the common view, loads without it.
const IssueBoard = lazy(() => import('./IssueBoard').then((module) => ({ default: module.IssueBoard })));

export function IssuesPage() {
  const { companyId = '' } = useParams();
  const [view, update] = useIssuesView();
  const [creating, setCreating] = useState(false);
  const names = useNames(companyId);
  const query = listQuery(view.filters);
  return (
    <div className="page page-issues">
      <PageHeader
        title="Issues"
        actions={
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New issue
          </button>
        }
      />
      <FilterBar companyId={companyId} view={view} update={update} />
      {view.view === 'board' ? (
        <Suspense fallback={<Loading label="Loading the board" />}>
          <IssueBoard companyId={companyId} filters={view.filters} query={query} names={names} />
        </Suspense>
      ) : (
        <ListView
          companyId={companyId}
          view={view}
          names={names}
          onCreate={() => setCreating(true)}
          onClearFilters={() =>
            update({
              status: undefined,
              assignee: undefined,
              project: undefined,
              goal: undefined,
              label: undefined,
              q: undefined,
            })
          }
        />
      )}
      <CreateIssueDialog companyId={companyId} open={creating} onOpenChange={setCreating} />
    </div>
  );
}

function ListView({
  companyId,
  view,
  names,
  onCreate,
  onClearFilters,
}: {
  companyId: string;
  view: IssuesView;
  names: Names;
  onCreate: () => void;
  onClearFilters: () => void;
}) {
  const pages = useInfiniteQuery(issuePagesQuery(companyId, listQuery(view.filters)));
  if (pages.isPending) return <Loading label="Loading issues" />;
  if (pages.isError && !pages.data)
    return (
      <ErrorNotice error={pages.error} title="The issues could not be loaded" retry={() => void pages.refetch()} />
    );
  const issues = pages.data.pages.flatMap((page) => page.issues);
  if (issues.length === 0) {
    return hasFilters(view.filters) ? (
      <div className="issue-empty">
        <h2>No issues match these filters</h2>
        <button type="button" onClick={onClearFilters}>
          Clear filters
        </button>
      </div>
    ) : (
      <div className="issue-empty">
        <h2>No issues yet</h2>
        <p className="muted">
          An issue is a piece of work for an agent or a person: give it a title, and optionally an assignee, a project
          and a goal. Assigning it to an agent wakes the agent to work on it.
        </p>
        <button type="button" className="primary" onClick={onCreate}>
          Create the first issue
        </button>
      </div>
    );
  }
  return (
    <>
      {pages.isFetchNextPageError && (
        <ErrorNotice
          error={pages.error}
          title="More issues could not be loaded"
          retry={() => void pages.fetchNextPage()}
        />
      )}
      <IssueList
        companyId={companyId}
        issues={issues}
        group={view.group}
        names={names}
        hasNextPage={pages.hasNextPage && !pages.isFetchNextPageError}
        isFetchingNextPage={pages.isFetchingNextPage}
        fetchNextPage={() => void pages.fetchNextPage()}
      />
    </>
  );
}

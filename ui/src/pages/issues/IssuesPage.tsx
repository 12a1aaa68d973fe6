// /c/:companyId/issues: the company's issues as a list or a board, filtered, sorted and grouped from
// the address, live through the 'issues' resource of its query keys.
import { useInfiniteQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Button } from '../../components/ui/Button';
import { toast } from '../../components/ui/Toast';
import { statusChangedToast } from '../../components/issues/status-toast';
import { issueStatuses, type IssueStatus } from '../../lib/statuses';
import { issuePagesQuery, type Issue } from '../../queries/issues';
import { BulkBar } from './BulkBar';
import { useBulkUpdate } from './bulk';
import { CreateIssueDialog } from './CreateIssueDialog';
import { FilterBar } from './FilterBar';
import { IssueList } from './IssueList';
import { useNames, type Names } from './queries';
import { hasFilters, listQuery, sortParam, useIssuesView, type IssuesView } from './url-state';

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
          <Button variant="primary" icon={Plus} onClick={() => setCreating(true)}>
            New issue
          </Button>
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
          update={update}
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
  update,
  names,
  onCreate,
  onClearFilters,
}: {
  companyId: string;
  view: IssuesView;
  update: ReturnType<typeof useIssuesView>[1];
  names: Names;
  onCreate: () => void;
  onClearFilters: () => void;
}) {
  const pages = useInfiniteQuery(issuePagesQuery(companyId, listQuery(view.filters)));
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const single = useBulkUpdate(companyId);
  const issues = useMemo(() => pages.data?.pages.flatMap((page) => page.issues) ?? [], [pages.data]);
  // The selection among the loaded issues: a filter change or a refresh drops what is no longer listed.
  const selected = useMemo(() => issues.filter((issue) => selectedIds.has(issue.id)), [issues, selectedIds]);
  const selectedSet = useMemo(() => new Set(selected.map((issue) => issue.id)), [selected]);

  const setStatus = async (issue: Issue, status: IssueStatus) => {
    const [failure] = await single.run([issue], { status });
    if (failure)
      toast({
        tone: 'error',
        title: `${issue.identifier} was not moved to ${issueStatuses.label(status)}`,
        description: failure.message,
      });
    else
      statusChangedToast(
        issue.identifier,
        issue.status,
        status,
        () => void setStatus({ ...issue, status }, issue.status),
      );
  };

  if (pages.isPending) return <Loading label="Loading issues" />;
  if (pages.isError && !pages.data)
    return (
      <ErrorNotice error={pages.error} title="The issues could not be loaded" retry={() => void pages.refetch()} />
    );
  if (issues.length === 0) {
    return hasFilters(view.filters) ? (
      <div className="issue-empty">
        <h2>No issues match these filters</h2>
        <Button onClick={onClearFilters}>Clear filters</Button>
      </div>
    ) : (
      <div className="issue-empty">
        <h2>No issues yet</h2>
        <p className="muted">
          An issue is a piece of work for an agent or a person: give it a title, and optionally an assignee, a project
          and a goal. Assigning it to an agent wakes the agent to work on it.
        </p>
        <Button variant="primary" onClick={onCreate}>
          Create the first issue
        </Button>
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
      {selected.length > 0 && (
        <BulkBar
          companyId={companyId}
          selected={selected}
          onClear={() => setSelectedIds(new Set())}
          onKeep={(ids) => setSelectedIds(new Set(ids))}
        />
      )}
      <IssueList
        companyId={companyId}
        issues={issues}
        group={view.group}
        sort={view.sort}
        onSortChange={(sort) => update({ sort: sortParam(sort) })}
        names={names}
        selected={selectedSet}
        onSelectedChange={setSelectedIds}
        onSetStatus={(issue, status) => void setStatus(issue, status)}
        hasNextPage={pages.hasNextPage && !pages.isFetchNextPageError}
        isFetchingNextPage={pages.isFetchingNextPage}
        fetchNextPage={() => void pages.fetchNextPage()}
      />
    </>
  );
}

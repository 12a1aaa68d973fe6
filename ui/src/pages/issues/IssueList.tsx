// The list view: the issues in a DataTable (virtualised, so 10,000 loaded issues scroll like 100), the
// next page fetched as the reader nears the end, optionally grouped and sorted. The list route has no
// sort parameter (SPEC: priority order, or best match with `q`), so a header sorts the issues loaded so
// far; scrolling loads more and they take their place in that order.
import { MoreHorizontal } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { DataTable, type DataTableColumn } from '../../components/display/DataTable';
import { PriorityIcon } from '../../components/display/PriorityIcon';
import { RelativeTime } from '../../components/display/RelativeTime';
import { StatusIcon } from '../../components/display/StatusIcon';
import { StatusPill } from '../../components/display/StatusPill';
import { LabelChips } from '../../components/labels/LabelChip';
import { IconButton } from '../../components/ui/Button';
import { Menu, MenuLabel } from '../../components/ui/Menu';
import { issuePriorities, issueStatuses, type IssueStatus } from '../../lib/statuses';
import { useStableHandler } from '../../lib/use-stable-handler';
import type { Issue } from '../../queries/issues';
import { IssueLiveDot } from './IssueLiveDot';
import { StatusMenuItems } from './StatusMenuItems';
import { issuePath } from './model';
import type { Names } from './queries';
import type { Grouping, IssueSort, SortColumn } from './url-state';

const ROW_HEIGHT = 40;

interface GroupOf {
  key(issue: Issue): string;
  label(key: string): string;
  /** Groups in this order; keys not listed (agents, projects) go by label, "none" last. */
  order?: readonly string[];
}

function groupOf(group: Exclude<Grouping, 'none'>, names: Names): GroupOf {
  switch (group) {
    case 'status':
      return {
        key: (issue) => issue.status,
        label: (key) => issueStatuses.label(key as Issue['status']),
        order: issueStatuses.list,
      };
    case 'priority':
      return {
        key: (issue) => issue.priority,
        label: (key) => issuePriorities.label(key as Issue['priority']),
        order: issuePriorities.list,
      };
    case 'assignee':
      return {
        key: (issue) => issue.assigneeAgentId ?? (issue.assigneeUserId ? `user:${issue.assigneeUserId}` : ''),
        label: (key) =>
          key === '' ? 'No assignee' : key.startsWith('user:') ? 'A board user' : (names.agent(key) ?? 'Unknown agent'),
      };
    case 'project':
      return {
        key: (issue) => issue.projectId ?? '',
        label: (key) => (key === '' ? 'No project' : (names.project(key) ?? 'Unknown project')),
      };
  }
}

const assigneeName = (issue: Issue, names: Names): string =>
  issue.assigneeAgentId
    ? (names.agent(issue.assigneeAgentId) ?? 'Unknown agent')
    : issue.assigneeUserId
      ? 'Board user'
      : '';
const issueNumber = (issue: Issue): number => Number(issue.identifier.split('-').pop()) || 0;

/** How each sortable column compares two issues (ascending). */
function comparator(column: SortColumn, names: Names): (a: Issue, b: Issue) => number {
  switch (column) {
    case 'identifier':
      return (a, b) => issueNumber(a) - issueNumber(b);
    case 'title':
      return (a, b) => a.title.localeCompare(b.title);
    case 'status':
      return (a, b) => issueStatuses.list.indexOf(a.status) - issueStatuses.list.indexOf(b.status);
    case 'priority':
      return (a, b) => issuePriorities.list.indexOf(a.priority) - issuePriorities.list.indexOf(b.priority);
    case 'assignee':
      // The unassigned last either way would need two comparators; "" sorts first ascending, which reads fine.
      return (a, b) => assigneeName(a, names).localeCompare(assigneeName(b, names));
    case 'updated':
      return (a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
  }
}

/**
 * The loaded issues in the order shown: sorted (stable, so ties keep the list's order), then grouped,
 * each group keeping that order. Groups cover what is loaded so far; scrolling further adds to them.
 */
export function orderIssues(issues: Issue[], group: Grouping, sort: IssueSort | null, names: Names): Issue[] {
  let ordered = issues;
  if (sort) {
    const compare = comparator(sort.column, names);
    const sign = sort.direction === 'asc' ? 1 : -1;
    ordered = [...issues].sort((a, b) => sign * compare(a, b));
  }
  if (group === 'none') return ordered;
  const by = groupOf(group, names);
  const groups = new Map<string, Issue[]>();
  for (const issue of ordered) {
    const key = by.key(issue);
    const members = groups.get(key);
    if (members) members.push(issue);
    else groups.set(key, [issue]);
  }
  const rank = (key: string) => (by.order ? by.order.indexOf(key) : key === '' ? Infinity : 0);
  return [...groups]
    .sort(([a], [b]) => rank(a) - rank(b) || by.label(a).localeCompare(by.label(b)))
    .flatMap(([, members]) => members);
}

/**
 * The list route says who holds an issue's checkout (`checkoutRunId`) but not whether that run is
 * still going: an in-progress issue checked out by a run is the closest it tells.
 */
export const hasLiveRun = (issue: Issue): boolean => issue.status === 'in_progress' && Boolean(issue.checkoutRunId);

interface IssueListProps {
  companyId: string;
  issues: Issue[];
  group: Grouping;
  sort: IssueSort | null;
  onSortChange: (sort: IssueSort | null) => void;
  names: Names;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  onSetStatus: (issue: Issue, status: IssueStatus) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
}

export function IssueList({
  companyId,
  issues,
  group,
  sort,
  onSortChange,
  names,
  selected,
  onSelectedChange,
  onSetStatus,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
}: IssueListProps) {
  const navigate = useNavigate();
  const rows = useMemo(() => orderIssues(issues, group, sort, names), [issues, group, sort, names]);
  const grouping = useMemo(() => (group === 'none' ? null : groupOf(group, names)), [group, names]);
  const columns = useMemo((): DataTableColumn<Issue>[] => issueColumns(companyId, names), [companyId, names]);
  // Stable, so the table's memoised rows keep their hover menu without re-rendering when the page does.
  const setStatus = useStableHandler(onSetStatus);
  const rowActions = useCallback((issue: Issue) => <RowActions issue={issue} onSetStatus={setStatus} />, [setStatus]);
  const onEndReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return (
    <>
      <DataTable<Issue>
        label="Issues"
        className="issue-table"
        rows={rows}
        columns={columns}
        rowKey={rowKey}
        rowLabel={rowLabel}
        rowAttributes={rowAttributes}
        rowHeight={ROW_HEIGHT}
        sort={sort}
        onSortChange={(next) => onSortChange(next as IssueSort | null)}
        selected={selected}
        onSelectedChange={onSelectedChange}
        onOpen={(issue) => void navigate(issuePath(companyId, issue))}
        rowActions={rowActions}
        groupKey={grouping?.key}
        groupLabel={grouping?.label}
        onEndReached={onEndReached}
        busy={isFetchingNextPage}
      />
      {isFetchingNextPage && (
        <p className="muted issue-list-more" role="status">
          Loading more issues…
        </p>
      )}
      {sort && hasNextPage && !isFetchingNextPage && (
        <p className="muted issue-list-more">
          Sorted among the {issues.length} issues loaded; more load as you scroll.
        </p>
      )}
    </>
  );
}

const rowKey = (issue: Issue) => issue.id;
const rowLabel = (issue: Issue) => issue.identifier;
const rowAttributes = (issue: Issue) => ({
  'data-issue-id': issue.id,
  'data-live': hasLiveRun(issue) ? 'true' : undefined,
});

function issueColumns(companyId: string, names: Names): DataTableColumn<Issue>[] {
  return [
    {
      id: 'identifier',
      header: 'ID',
      width: '84px',
      sortable: true,
      hideNarrow: true,
      cell: (issue) => <span className="issue-identifier">{issue.identifier}</span>,
    },
    {
      id: 'title',
      header: 'Title',
      sortable: true,
      cell: (issue) => (
        <span className="issue-title-cell">
          <StatusIcon kind="issue" status={issue.status} size={14} />
          <Link to={issuePath(companyId, issue)} className="issue-title row-link" tabIndex={-1}>
            {issue.title}
          </Link>
          <IssueLiveDot companyId={companyId} issue={issue} />
        </span>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      width: '120px',
      sortable: true,
      hideNarrow: true,
      cell: (issue) => (
        <StatusPill tone={issueStatuses.tone(issue.status)}>{issueStatuses.label(issue.status)}</StatusPill>
      ),
    },
    {
      id: 'priority',
      header: 'Priority',
      width: '64px',
      sortable: true,
      cell: (issue) => <PriorityIcon priority={issue.priority} size={14} />,
    },
    {
      id: 'assignee',
      header: 'Assignee',
      width: '160px',
      sortable: true,
      hideNarrow: true,
      cell: (issue) => <Assignee issue={issue} names={names} withName />,
    },
    {
      id: 'labels',
      header: 'Labels',
      width: '160px',
      hideNarrow: true,
      cell: (issue) => <LabelChips companyId={companyId} ids={issue.labelIds} className="label-chips-row" />,
    },
    {
      id: 'updated',
      header: 'Updated',
      width: '112px',
      sortable: true,
      firstDirection: 'desc',
      align: 'end',
      hideNarrow: true,
      cell: (issue) => <RelativeTime at={issue.updatedAt} className="muted" />,
    },
  ];
}

/**
 * A row's hover menu. Its menu is mounted on first use: a Radix menu per rendered row would cost the
 * list's first screen for menus hardly anyone opens.
 */
function RowActions({
  issue,
  onSetStatus,
}: {
  issue: Issue;
  onSetStatus: (issue: Issue, status: IssueStatus) => void;
}) {
  const [open, setOpen] = useState<boolean | null>(null);
  const button = (
    <IconButton
      icon={MoreHorizontal}
      size="sm"
      tabIndex={-1}
      aria-label={`Actions for ${issue.identifier}`}
      onClick={open === null ? () => setOpen(true) : undefined}
    />
  );
  if (open === null) return button;
  return (
    <Menu align="end" label={`Actions for ${issue.identifier}`} open={open} onOpenChange={setOpen} trigger={button}>
      <MenuLabel>Set status</MenuLabel>
      <StatusMenuItems current={issue.status} onPick={(status) => onSetStatus(issue, status)} />
    </Menu>
  );
}

/** The assignee's avatar (named for screen readers and on hover), with the name beside it when asked. */
export function Assignee({ issue, names, withName }: { issue: Issue; names: Names; withName?: boolean }) {
  const name = assigneeName(issue, names);
  if (!name) return withName ? <span className="muted">No one</span> : <span />;
  const id = issue.assigneeAgentId ?? issue.assigneeUserId ?? undefined;
  if (!withName) return <AgentAvatar id={id} name={name} size={20} />;
  return (
    <span className="issue-assignee">
      <AgentAvatar id={id} name={name} size={20} />
      <span className="issue-assignee-name" aria-hidden="true">
        {name}
      </span>
    </span>
  );
}

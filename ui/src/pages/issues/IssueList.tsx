// The list view: rows virtualised (only what is on screen is in the DOM, so 100k issues scroll like
// 100), the next page fetched as the reader nears the end, optionally grouped.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { PriorityIcon } from '../../components/display/PriorityIcon';
import { RelativeTime } from '../../components/display/RelativeTime';
import { StatusIcon } from '../../components/display/StatusIcon';
import { issuePriorities, issueStatuses } from '../../lib/statuses';
import type { Issue } from '../../queries/issues';
import { issuePath } from './model';
import type { Names } from './queries';
import type { Grouping } from './url-state';

const ROW_HEIGHT = 37;
/** Ask for the next page while this many rows are still below the screen. */
const PREFETCH_ROWS = 30;

type Row = { kind: 'group'; key: string; label: string; count: number } | { kind: 'issue'; issue: Issue };

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

/**
 * Rows of the loaded pages, grouped: each group keeps list order inside it. Groups cover what is
 * loaded so far; scrolling further adds to them.
 */
export function groupRows(issues: Issue[], group: Grouping, names: Names): Row[] {
  if (group === 'none') return issues.map((issue) => ({ kind: 'issue', issue }));
  const by = groupOf(group, names);
  const groups = new Map<string, Issue[]>();
  for (const issue of issues) {
    const key = by.key(issue);
    const members = groups.get(key);
    if (members) members.push(issue);
    else groups.set(key, [issue]);
  }
  const rank = (key: string) => (by.order ? by.order.indexOf(key) : key === '' ? Infinity : 0);
  const sorted = [...groups].sort(([a], [b]) => rank(a) - rank(b) || by.label(a).localeCompare(by.label(b)));
  return sorted.flatMap(([key, members]): Row[] => [
    { kind: 'group', key, label: by.label(key), count: members.length },
    ...members.map((issue): Row => ({ kind: 'issue', issue })),
  ]);
}

interface IssueListProps {
  companyId: string;
  issues: Issue[];
  group: Grouping;
  names: Names;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
}

export function IssueList({
  companyId,
  issues,
  group,
  names,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
}: IssueListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => groupRows(issues, group, names), [issues, group, names]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const visible = virtualizer.getVirtualItems();
  const lastVisible = visible[visible.length - 1]?.index ?? 0;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastVisible >= rows.length - PREFETCH_ROWS) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastVisible, rows.length, fetchNextPage]);

  // Arrow keys walk the rows (group headings skipped). The next row is always rendered (overscan),
  // and focusing it scrolls it into view, which the virtualizer follows.
  const walkRows = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const from = (event.target as HTMLElement).closest('[data-index]')?.getAttribute('data-index');
    if (from == null) return;
    const step = event.key === 'ArrowDown' ? 1 : -1;
    let next = Number(from) + step;
    while (rows[next]?.kind === 'group') next += step;
    const link = scroller.current?.querySelector<HTMLAnchorElement>(`[data-index="${next}"] a`);
    if (!link) return;
    event.preventDefault();
    link.focus();
  };

  return (
    <div className="issue-list" ref={scroller} onKeyDown={walkRows}>
      <div
        role="list"
        aria-label="Issues"
        aria-busy={isFetchingNextPage}
        style={{ height: virtualizer.getTotalSize() }}
        className="issue-list-rows"
      >
        {visible.map((item) => {
          const row = rows[item.index];
          // The virtualizer counts `rows` as of this render, so every index it gives has a row.
          if (!row) return null;
          const place = { transform: `translateY(${item.start}px)`, height: item.size };
          if (row.kind === 'group') {
            return (
              <div key={`group:${row.key}`} role="listitem" className="issue-group" style={place}>
                <h2>
                  {row.label} <span className="count">{row.count}</span>
                </h2>
              </div>
            );
          }
          const { issue } = row;
          return (
            <div
              key={issue.id}
              role="listitem"
              data-issue-id={issue.id}
              data-index={item.index}
              className="issue-row"
              style={place}
            >
              <Link to={issuePath(companyId, issue)} className="row-link">
                <PriorityIcon priority={issue.priority} />
                <StatusIcon kind="issue" status={issue.status} />
                <span className="issue-identifier">{issue.identifier}</span>
                <span className="issue-title">{issue.title}</span>
                <span className="issue-project muted">{names.project(issue.projectId) ?? ''}</span>
                <Assignee issue={issue} names={names} />
                <RelativeTime at={issue.updatedAt} className="muted" />
              </Link>
            </div>
          );
        })}
      </div>
      {isFetchingNextPage && (
        <p className="muted issue-list-more" role="status">
          Loading more issues…
        </p>
      )}
    </div>
  );
}

/** The assignee's avatar (named for screen readers and on hover), or nothing when unassigned. */
export function Assignee({ issue, names }: { issue: Issue; names: Names }) {
  const agent = names.agent(issue.assigneeAgentId);
  if (issue.assigneeAgentId)
    return <AgentAvatar id={issue.assigneeAgentId} name={agent ?? 'Unknown agent'} size={20} />;
  if (issue.assigneeUserId) return <AgentAvatar id={issue.assigneeUserId} name="Board user" size={20} />;
  return <span />;
}

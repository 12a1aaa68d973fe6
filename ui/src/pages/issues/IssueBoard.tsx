// The board view: a column per status. A card moves by drag and drop, or by keyboard through its
// "Move to…" menu; both PATCH the status with an optimistic move, and a refusal (SPEC transitions:
// 409/422) puts the card back and says why next to it.
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PriorityIcon } from '../../components/display/PriorityIcon';
import { RelativeTime } from '../../components/display/RelativeTime';
import { StatusIcon } from '../../components/display/StatusIcon';
import { issueStatuses, type IssueStatus } from '../../lib/statuses';
import { issueColumnQuery, type Issue } from '../../queries/issues';
import { Assignee } from './IssueList';
import { issuePath } from './model';
import { useMoveIssue, type Names } from './queries';
import type { IssueFilters, listQuery } from './url-state';

interface Refusal {
  issueId: string;
  to: IssueStatus;
  message: string;
}

interface BoardProps {
  companyId: string;
  filters: IssueFilters;
  query: ReturnType<typeof listQuery>;
  names: Names;
}

export function IssueBoard({ companyId, filters, query, names }: BoardProps) {
  const move = useMoveIssue(companyId);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [movedId, setMovedId] = useState<string | null>(null);
  const dragged = useRef<Issue | null>(null);
  const columns =
    filters.status.length > 0
      ? issueStatuses.list.filter((status) => filters.status.includes(status))
      : issueStatuses.list;

  const moveTo = (issue: Issue, to: IssueStatus) => {
    if (issue.status === to) return;
    setRefusal(null);
    setMovedId(issue.id);
    move.mutate(
      { issue, to },
      { onError: (error) => setRefusal({ issueId: issue.id, to, message: errorMessage(error) }) },
    );
  };

  const card = {
    companyId,
    names,
    refusal,
    movedId,
    onMove: moveTo,
    onDismiss: () => setRefusal(null),
    onDragStart: (issue: Issue) => (dragged.current = issue),
  };
  return (
    <div className="issue-board">
      {columns.map((status) => (
        <Column
          key={status}
          status={status}
          query={query}
          {...card}
          onDrop={() => dragged.current && moveTo(dragged.current, status)}
        />
      ))}
    </div>
  );
}

interface CardActions {
  companyId: string;
  names: Names;
  refusal: Refusal | null;
  /** The card last moved: it takes the focus where it lands, so a keyboard move keeps the reader's place. */
  movedId: string | null;
  onMove: (issue: Issue, to: IssueStatus) => void;
  onDismiss: () => void;
  onDragStart: (issue: Issue) => void;
}

function Column({
  status,
  query,
  onDrop,
  ...card
}: CardActions & { status: IssueStatus; query: ReturnType<typeof listQuery>; onDrop: () => void }) {
  const pages = useInfiniteQuery(issueColumnQuery(card.companyId, query, status));
  const [over, setOver] = useState(false);
  const issues = pages.data?.pages.flatMap((page) => page.issues) ?? [];
  const headingId = `column-${status}`;
  const accept = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(true);
  };
  return (
    <section
      className={`issue-column${over ? ' issue-column-over' : ''}`}
      aria-labelledby={headingId}
      onDragOver={accept}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        onDrop();
      }}
    >
      <h2>
        <StatusIcon kind="issue" status={status} size={14} />
        <span id={headingId}>{issueStatuses.label(status)}</span>{' '}
        {pages.data && (
          <span className="count">
            {issues.length}
            {pages.hasNextPage ? '+' : ''}
          </span>
        )}
      </h2>
      {pages.isPending && <Loading label="Loading issues" />}
      {pages.isError && (
        <ErrorNotice
          error={pages.error}
          title={`${issueStatuses.label(status)} could not be loaded`}
          retry={() => void pages.refetch()}
        />
      )}
      <ul className="issue-cards" aria-labelledby={headingId}>
        {issues.map((issue) => (
          <IssueCard key={issue.id} issue={issue} {...card} />
        ))}
      </ul>
      {pages.isFetchNextPageError && (
        <ErrorNotice
          error={pages.error}
          title="More issues could not be loaded"
          retry={() => void pages.fetchNextPage()}
        />
      )}
      {pages.hasNextPage && (
        <button
          type="button"
          className="issue-column-more"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {pages.isFetchingNextPage ? 'Loading…' : `Show more ${issueStatuses.label(status).toLowerCase()}`}
        </button>
      )}
    </section>
  );
}

function IssueCard({
  issue,
  companyId,
  names,
  refusal,
  movedId,
  onMove,
  onDismiss,
  onDragStart,
}: CardActions & { issue: Issue }) {
  const trigger = useRef<HTMLButtonElement>(null);
  const refused = refusal?.issueId === issue.id ? refusal : null;
  useEffect(() => {
    if (movedId === issue.id && trigger.current && !trigger.current.contains(document.activeElement))
      trigger.current.focus();
  }, [movedId, issue.id]);
  return (
    <li
      className="issue-card"
      data-issue-id={issue.id}
      draggable
      onDragStart={(event) => {
        event.dataTransfer.setData('text/plain', issue.identifier);
        event.dataTransfer.effectAllowed = 'move';
        onDragStart(issue);
      }}
    >
      <div className="issue-card-head">
        <StatusIcon kind="issue" status={issue.status} size={14} />
        <Link to={issuePath(companyId, issue)} draggable={false}>
          <span className="issue-identifier">{issue.identifier}</span> {issue.title}
        </Link>
      </div>
      <div className="issue-card-meta">
        <PriorityIcon priority={issue.priority} size={14} />
        <Assignee issue={issue} names={names} />
        <RelativeTime at={issue.updatedAt} className="muted" />
        <Menu.Root>
          <Menu.Trigger asChild>
            <button ref={trigger} type="button" className="issue-move">
              Move<span className="visually-hidden"> {issue.identifier}</span> to…
            </button>
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content className="issue-move-menu" align="end">
              {issueStatuses.list
                .filter((status) => status !== issue.status)
                .map((status) => (
                  <Menu.Item key={status} className="issue-move-item" onSelect={() => onMove(issue, status)}>
                    {issueStatuses.label(status)}
                  </Menu.Item>
                ))}
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      </div>
      {refused && (
        <div className="notice notice-error issue-refusal" role="alert">
          <p>
            <strong>Not moved to {issueStatuses.label(refused.to)}:</strong> {refused.message}
          </p>
          <button type="button" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
    </li>
  );
}

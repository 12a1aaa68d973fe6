// The board view: a column per status. A card moves by drag and drop, or by keyboard: focus the card,
// then M (or Space) opens its status menu, Alt+Arrow moves it to the next column. Both PATCH the
// status with an optimistic move; a refusal (SPEC transitions: 409/422) puts the card back and the
// server's reason shows in a toast. Each move is announced in a live region.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PriorityIcon } from '../../components/display/PriorityIcon';
import { RelativeTime } from '../../components/display/RelativeTime';
import { StatusIcon } from '../../components/display/StatusIcon';
import { LabelChips } from '../../components/labels/LabelChip';
import { Menu, MenuLabel } from '../../components/ui/Menu';
import { toast } from '../../components/ui/Toast';
import { statusChangedToast } from '../../components/issues/status-toast';
import { issueStatuses, type IssueStatus } from '../../lib/statuses';
import { issueColumnQuery, type Issue } from '../../queries/issues';
import { Assignee } from './IssueList';
import { IssueLiveDot } from './IssueLiveDot';
import { StatusMenuItems } from './StatusMenuItems';
import { issuePath, SETTABLE_STATUSES } from './model';
import { useMoveIssue, type Names } from './queries';
import type { IssueFilters, listQuery } from './url-state';

interface BoardProps {
  companyId: string;
  filters: IssueFilters;
  query: ReturnType<typeof listQuery>;
  names: Names;
}

const HINT_ID = 'issue-card-keys';
/** The server's reason as a sentence, so the words after it read apart. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

export function IssueBoard({ companyId, filters, query, names }: BoardProps) {
  const move = useMoveIssue(companyId);
  const [movedId, setMovedId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const dragged = useRef<Issue | null>(null);
  const columns =
    filters.status.length > 0
      ? issueStatuses.list.filter((status) => filters.status.includes(status))
      : issueStatuses.list;

  const moveTo = (issue: Issue, to: IssueStatus) => {
    if (issue.status === to) return;
    setMovedId(issue.id);
    setAnnouncement(`Moving ${issue.identifier} to ${issueStatuses.label(to)}…`);
    move.mutate(
      { issue, to },
      {
        onSuccess: () => {
          setAnnouncement(`${issue.identifier} moved to ${issueStatuses.label(to)}.`);
          statusChangedToast(issue.identifier, issue.status, to, () => moveTo({ ...issue, status: to }, issue.status));
        },
        onError: (error) => {
          const reason = errorMessage(error);
          setAnnouncement(`${issue.identifier} not moved: ${reason}`);
          toast({
            tone: 'error',
            title: `${issue.identifier} not moved to ${issueStatuses.label(to)}`,
            description: `${sentence(reason)} It is back in ${issueStatuses.label(issue.status)}.`,
          });
        },
      },
    );
  };
  /** Alt+Arrow: the next column a person can move to (in progress is reached by checkout only). */
  const step = (issue: Issue, by: 1 | -1) => {
    const reachable = columns.filter(
      (status) => (SETTABLE_STATUSES as readonly IssueStatus[]).includes(status) || status === issue.status,
    );
    const to = reachable[reachable.indexOf(issue.status) + by];
    if (to) moveTo(issue, to);
  };

  const card = {
    companyId,
    names,
    movedId,
    onMove: moveTo,
    onStep: step,
    onDragStart: (issue: Issue) => (dragged.current = issue),
  };
  return (
    <>
      <p id={HINT_ID} className="visually-hidden">
        Enter: open. M or Space: change the status. Alt and the left or right arrow: move to the previous or next
        column.
      </p>
      <p className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </p>
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
    </>
  );
}

interface CardActions {
  companyId: string;
  names: Names;
  /** The card last moved: it takes the focus where it lands, so a keyboard move keeps the reader's place. */
  movedId: string | null;
  onMove: (issue: Issue, to: IssueStatus) => void;
  onStep: (issue: Issue, by: 1 | -1) => void;
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

function IssueCard({ issue, companyId, names, movedId, onMove, onStep, onDragStart }: CardActions & { issue: Issue }) {
  const self = useRef<HTMLLIElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const navigate = useNavigate();
  useEffect(() => {
    if (movedId === issue.id && self.current && !self.current.contains(document.activeElement)) self.current.focus();
  }, [movedId, issue.id]);
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (event.target !== event.currentTarget) return;
    if ((event.key === 'm' || event.key === ' ') && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      setMenuOpen(true);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void navigate(issuePath(companyId, issue));
    } else if (event.altKey && (event.key === 'ArrowRight' || event.key === 'ArrowLeft')) {
      event.preventDefault();
      onStep(issue, event.key === 'ArrowRight' ? 1 : -1);
    }
  };
  return (
    <li
      ref={self}
      className="issue-card"
      data-issue-id={issue.id}
      tabIndex={0}
      aria-label={`${issue.identifier} ${issue.title}, ${issueStatuses.label(issue.status)}`}
      aria-describedby={HINT_ID}
      draggable
      onKeyDown={onKeyDown}
      onDragStart={(event) => {
        event.dataTransfer.setData('text/plain', issue.identifier);
        event.dataTransfer.effectAllowed = 'move';
        onDragStart(issue);
      }}
    >
      <div className="issue-card-head">
        <Menu
          open={menuOpen}
          onOpenChange={setMenuOpen}
          label={`Status of ${issue.identifier}`}
          trigger={
            <button
              type="button"
              className="issue-card-status"
              tabIndex={-1}
              aria-label={`Change the status of ${issue.identifier}`}
            >
              <StatusIcon kind="issue" status={issue.status} size={14} />
            </button>
          }
        >
          <MenuLabel>Move to</MenuLabel>
          <StatusMenuItems current={issue.status} onPick={(status) => onMove(issue, status)} />
        </Menu>
        <Link to={issuePath(companyId, issue)} draggable={false} tabIndex={-1}>
          <span className="issue-identifier">{issue.identifier}</span> {issue.title}
        </Link>
        <IssueLiveDot companyId={companyId} issue={issue} />
      </div>
      <div className="issue-card-meta">
        <PriorityIcon priority={issue.priority} size={14} />
        <Assignee issue={issue} names={names} />
        <RelativeTime at={issue.updatedAt} className="muted" />
      </div>
      <LabelChips companyId={companyId} ids={issue.labelIds} className="label-chips-card" />
    </li>
  );
}

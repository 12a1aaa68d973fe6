// The issue's one history, oldest first: the description (with what hangs off the issue: sub-issues,
// documents, attachments, workspace), then comments, runs, status and assignee changes and document
// edits as they happened, and the composer at the bottom. Everything refreshes from the company's live
// events (comments, activity and runs are all under keys the events name); nothing polls.
import { useQuery } from '@tanstack/react-query';
import { FilePen, FilePlus, type LucideIcon, Puzzle, Settings, UserRound } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { TimelineItem } from '../../components/display/TimelineItem';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Markdown } from '../../components/Markdown';
import { issuePriorities, issueStatuses, type IssuePriority, type IssueStatus } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { issueDocumentsQuery } from '../../queries/documents';
import { meQuery } from '../../queries/instance';
import {
  COMMENT_PAGE,
  issueActivityQuery,
  issueCommentsQuery,
  type IssueActivity,
  type IssueDetail,
} from '../../queries/issues';
import { Composer } from './Composer';
import { RunCard, type IssueRun } from './Runs';

interface Entry {
  key: string;
  at: string;
  node: ReactNode;
}

type Names = ReturnType<typeof useAgentNames>;

/** Who acted, as a face (an agent's avatar, else an icon) and a name. */
function actorOf(
  names: Names,
  meId: string | undefined,
  kind: 'agent' | 'user' | 'system' | 'plugin',
  id: string | null,
) {
  if (kind === 'agent' && id) {
    const name = names.nameOf(id);
    return { name, avatar: <AgentAvatar id={id} name={name} />, icon: undefined };
  }
  if (kind === 'user') return { name: id && id === meId ? 'You' : 'Board', avatar: undefined, icon: UserRound };
  if (kind === 'plugin') return { name: 'A plugin', avatar: undefined, icon: Puzzle };
  return { name: 'Boardroom', avatar: undefined, icon: Settings };
}

interface Change {
  from: unknown;
  to: unknown;
}
const changeOf = (details: IssueActivity['details'], field: string): Change | undefined => {
  const changes = details?.changes as Record<string, Change> | undefined;
  return changes?.[field];
};

/** The sentences an activity entry adds to the timeline: only what a reader of the issue follows. */
function sentencesOf(
  entry: IssueActivity,
  names: Names,
  meId: string | undefined,
  documentName: (key: string) => string,
): { key: string; text: ReactNode; icon?: LucideIcon }[] {
  const details = entry.details;
  if (entry.action === 'issue.updated') {
    const out: { key: string; text: ReactNode }[] = [];
    const status = changeOf(details, 'status');
    if (status)
      out.push({
        key: 'status',
        text: (
          <>
            changed the status from {issueStatuses.label(status.from as IssueStatus)} to{' '}
            <strong>{issueStatuses.label(status.to as IssueStatus)}</strong>
          </>
        ),
      });
    const agent = changeOf(details, 'assigneeAgentId');
    const user = changeOf(details, 'assigneeUserId');
    if (agent?.to) out.push({ key: 'assignee', text: <>assigned it to {names.nameOf(String(agent.to))}</> });
    else if (user?.to)
      out.push({ key: 'assignee', text: <>assigned it to {user.to === meId ? 'you' : 'a board user'}</> });
    else if (agent || user) out.push({ key: 'assignee', text: <>removed the assignee</> });
    const priority = changeOf(details, 'priority');
    if (priority)
      out.push({
        key: 'priority',
        text: <>set the priority to {issuePriorities.label(priority.to as IssuePriority)}</>,
      });
    return out;
  }
  // A checkout moves the issue to In progress, a release back to Todo: status changes the run card alone
  // would not say.
  if (entry.action === 'issue.checked_out')
    return [
      {
        key: 'checkout',
        text: (
          <>
            checked it out, moving it to <strong>In progress</strong>
          </>
        ),
      },
    ];
  if (entry.action === 'issue.released')
    return [
      {
        key: 'release',
        text: (
          <>
            released it, moving it back to <strong>Todo</strong>
          </>
        ),
      },
    ];
  if (entry.action === 'issue.document_created' || entry.action === 'issue.document_updated') {
    const key = String(details?.key ?? '');
    const created = entry.action === 'issue.document_created';
    return [
      {
        key: 'document',
        icon: created ? FilePlus : FilePen,
        text: (
          <>
            {created ? 'created the document' : 'updated the document'}{' '}
            <a href={`#document-${key}`}>{documentName(key)}</a>
            {!created && details?.revisionNumber ? ` (revision ${String(details.revisionNumber)})` : ''}
          </>
        ),
      },
    ];
  }
  return [];
}

export function Timeline({
  companyId,
  issue,
  runs,
  runsError,
  retryRuns,
  opening,
}: {
  companyId: string;
  issue: IssueDetail;
  runs: IssueRun[];
  runsError: Error | null;
  retryRuns: () => void;
  /** The description and what hangs off the issue: the first entry's body. */
  opening: ReactNode;
}) {
  const names = useAgentNames(companyId);
  const meId = useQuery(meQuery()).data?.user.id;
  const comments = useQuery(issueCommentsQuery(companyId, issue.id));
  const activity = useQuery(issueActivityQuery(companyId, issue.id));
  const documents = useQuery(issueDocumentsQuery(companyId, issue.id));
  const documentName = (key: string) => documents.data?.find((doc) => doc.key === key)?.title ?? key;

  const entries: Entry[] = [];
  for (const comment of comments.data ?? []) {
    const who = comment.authorAgentId
      ? actorOf(names, meId, 'agent', comment.authorAgentId)
      : actorOf(names, meId, 'user', comment.authorUserId);
    entries.push({
      key: `comment-${comment.id}`,
      at: comment.createdAt,
      node: (
        <TimelineItem
          avatar={who.avatar}
          icon={who.icon}
          actor={who.name}
          at={comment.createdAt}
          body={<Markdown text={comment.body} headingLevel={3} />}
        >
          commented
        </TimelineItem>
      ),
    });
  }
  for (const run of runs) {
    entries.push({
      key: `run-${run.runId}`,
      at: run.createdAt,
      node: <RunCard companyId={companyId} issueId={issue.id} run={run} name={names.nameOf(run.agentId)} />,
    });
  }
  for (const entry of activity.data ?? []) {
    const who = actorOf(names, meId, entry.actorType, entry.actorId);
    for (const sentence of sentencesOf(entry, names, meId, documentName)) {
      entries.push({
        key: `activity-${entry.id}-${sentence.key}`,
        at: entry.createdAt,
        node: (
          <TimelineItem avatar={who.avatar} icon={who.icon ?? sentence.icon} actor={who.name} at={entry.createdAt}>
            {sentence.text}
          </TimelineItem>
        ),
      });
    }
  }
  entries.sort((a, b) => a.at.localeCompare(b.at));
  const creator = issue.createdByAgentId
    ? actorOf(names, meId, 'agent', issue.createdByAgentId)
    : actorOf(names, meId, 'user', issue.createdByUserId);

  return (
    <section className="issue-timeline" aria-label="Timeline">
      <ul className="timeline">
        <TimelineItem
          avatar={creator.avatar}
          icon={creator.icon}
          actor={creator.name}
          at={issue.createdAt}
          body={opening}
        >
          opened the issue
        </TimelineItem>
        {entries.map((entry) => (
          <Fragment key={entry.key}>{entry.node}</Fragment>
        ))}
      </ul>
      {comments.data?.length === COMMENT_PAGE && (
        <p className="muted">The timeline shows the latest {COMMENT_PAGE} comments.</p>
      )}
      {comments.isError && (
        <ErrorNotice
          error={comments.error}
          title="Comments could not be loaded"
          retry={() => void comments.refetch()}
        />
      )}
      {activity.isError && (
        <ErrorNotice
          error={activity.error}
          title="The issue's history could not be loaded"
          retry={() => void activity.refetch()}
        />
      )}
      {runsError && <ErrorNotice error={runsError} title="Runs could not be loaded" retry={retryRuns} />}
      <Composer companyId={companyId} issueId={issue.id} agents={names.agents} />
    </section>
  );
}

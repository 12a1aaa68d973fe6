// The latest activity entries, each in words and leading to its subject. Live: the 'activity'
// resource is refreshed on every activity event.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, timeAgo } from '../../lib/format';
import { activityQuery } from '../../queries/activity';
import { useAgentNames } from '../../queries/agents';
import { issueQuery } from '../../queries/issues';
import { entryLabel, entryLink } from '../../components/activity/activity-links';
import { entrySentence, type Names } from '../../components/activity/activity-sentence';
import { meQuery } from '../../queries/instance';
import { groupRunEntries, runOutcomesInWords, type RunGroup } from './activity-groups';

const RECENT = 20;

export function RecentActivity({ companyId }: { companyId: string }) {
  const activity = useQuery(activityQuery(companyId, { limit: RECENT }));
  const names = useAgentNames(companyId);
  const me = useQuery(meQuery());
  const sentenceNames: Names = { agent: names.knownName, me: me.data?.user.id };
  return (
    <section className="card recent-activity" aria-labelledby="activity-heading">
      <h2 id="activity-heading">
        Recent activity{' '}
        <Link to={`/c/${companyId}/activity`} className="heading-link">
          All activity
        </Link>
      </h2>
      {activity.isPending ? (
        <Loading label="Loading activity" />
      ) : activity.isError ? (
        <ErrorNotice error={activity.error} retry={() => activity.refetch()} title="Activity could not be loaded" />
      ) : activity.data.length === 0 ? (
        <p className="muted empty">No activity yet.</p>
      ) : (
        <ol className="activity-list">
          {groupRunEntries(activity.data).map((line) => {
            if (line.kind === 'runs')
              return (
                <RunGroupLine
                  key={line.newest.id}
                  group={line}
                  companyId={companyId}
                  agentName={names.knownName(line.agentId) ?? 'An agent'}
                />
              );
            const { entry } = line;
            const path = entryLink(companyId, entry);
            const { actor, verb, subject: named, rest } = entrySentence(entry, sentenceNames);
            // At a glance an issue reads better with its title too ("NOR-12 Fix the login").
            const subject = entry.entityType === 'issue' ? entryLabel(entry, () => named) : named;
            return (
              <li key={entry.id} data-activity-id={entry.id}>
                <span>
                  <strong>{actor}</strong> {verb} {path ? <Link to={path}>{subject}</Link> : <span>{subject}</span>}
                  {rest && ` ${rest}`}
                </span>
                <When at={entry.createdAt} />
              </li>
            );
          })}
        </ol>
      )}
      {names.error && <ErrorNotice error={names.error} retry={names.retry} title="Agent names could not be loaded" />}
    </section>
  );
}

type Entry = Parameters<typeof groupRunEntries>[0][number];

/** "Dev ran 5 times on NOR-1, all succeeded": the agent's runs page, and the issue when there is one. */
function RunGroupLine({
  group,
  companyId,
  agentName,
}: {
  group: RunGroup<Entry>;
  companyId: string;
  agentName: string;
}) {
  const { times, outcome } = runOutcomesInWords(group.outcomes);
  return (
    <li data-activity-id={group.newest.id} data-run-group>
      <span>
        <Link to={`/c/${companyId}/agents/${group.agentId}/runs`}>
          <strong>{agentName}</strong> ran {times}
        </Link>
        {group.issueId && (
          <>
            {' '}
            on <IssueLink companyId={companyId} issueId={group.issueId} />
          </>
        )}
        , {outcome}
      </span>
      <When at={group.newest.createdAt} />
    </li>
  );
}

/** The issue by its identifier once loaded (shared cache with the issue page). */
function IssueLink({ companyId, issueId }: { companyId: string; issueId: string }) {
  const issue = useQuery(issueQuery(companyId, issueId));
  return (
    <Link to={`/c/${companyId}/issues/${issueId}`} title={issue.data?.title}>
      {issue.data?.identifier ?? 'an issue'}
    </Link>
  );
}

function When({ at }: { at: string }) {
  return (
    <time className="muted" dateTime={at} title={fullTime(at)}>
      {timeAgo(at)}
    </time>
  );
}

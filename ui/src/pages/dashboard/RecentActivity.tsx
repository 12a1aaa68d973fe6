// The latest activity entries, each in words and leading to its subject. Live: the 'activity'
// resource is refreshed on every activity event.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, timeAgo } from '../../lib/format';
import { activityQuery } from '../../queries/activity';
import { useAgentNames } from '../../queries/agents';
import { actorName, subjectName, subjectPath, verb } from './activity-text';

const RECENT = 20;

export function RecentActivity({ companyId }: { companyId: string }) {
  const activity = useQuery(activityQuery(companyId, { limit: RECENT }));
  const names = useAgentNames(companyId);
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
          {activity.data.map((entry) => {
            const path = subjectPath(companyId, entry);
            const subject = subjectName(entry, names.knownName);
            return (
              <li key={entry.id} data-activity-id={entry.id}>
                <span>
                  <strong>{actorName(entry, names.knownName)}</strong> {verb(entry.action)}{' '}
                  {path ? <Link to={path}>{subject}</Link> : <span>{subject}</span>}
                </span>
                <time className="muted" dateTime={entry.createdAt} title={fullTime(entry.createdAt)}>
                  {timeAgo(entry.createdAt)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
      {names.error && <ErrorNotice error={names.error} retry={names.retry} title="Agent names could not be loaded" />}
    </section>
  );
}

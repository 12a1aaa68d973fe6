// The run's own timeline, oldest first: when it was queued (from the run itself), then every activity
// entry of the run (GET activity?runId=: what the agent and the engine recorded under it, and its
// start and end whoever ended it), each as a sentence. The end says the error code in words. Live:
// the activity query is refreshed on every activity event.
import { useQuery } from '@tanstack/react-query';
import { Ban, CircleCheck, CircleX, Clock, Cog, Play, TimerOff, User, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { entryLink } from '../../components/activity/activity-links';
import { entrySentence, type Names } from '../../components/activity/activity-sentence';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { TimelineItem } from '../../components/display/TimelineItem';
import { RunFailure } from '../../components/runs/RunFailure';
import { runSourceLabel } from '../../components/runs/run-status';
import { activityQuery } from '../../queries/activity';
import { meQuery } from '../../queries/instance';
import type { RunDetail } from '../../queries/runs';

// A run's timeline longer than this is a chatty agent: the newest this many are shown, and it says so.
const RUN_EVENTS_LIMIT = 200;

const LIFECYCLE_ICONS: Record<string, LucideIcon> = {
  'heartbeat_run.started': Play,
  'heartbeat_run.succeeded': CircleCheck,
  'heartbeat_run.failed': CircleX,
  'heartbeat_run.timed_out': TimerOff,
  'heartbeat_run.cancelled': Ban,
};

export function RunEvents({
  companyId,
  run,
  agentName,
  knownName,
}: {
  companyId: string;
  run: RunDetail;
  agentName: string;
  knownName: (agentId: string) => string | undefined;
}) {
  const events = useQuery(activityQuery(companyId, { runId: run.runId, limit: RUN_EVENTS_LIMIT }));
  const me = useQuery(meQuery());
  if (events.isPending) return <Loading label="Loading the run's events" />;
  if (events.isError)
    return (
      <ErrorNotice
        error={events.error}
        title="The run's events could not be loaded"
        retry={() => void events.refetch()}
      />
    );
  const names: Names = { agent: knownName, me: me.data?.user.id };
  const entries = [...events.data].reverse();
  return (
    <>
      {events.data.length === RUN_EVENTS_LIMIT && (
        <p className="muted">
          The newest {RUN_EVENTS_LIMIT} events of this run; the earlier ones are on the activity page.
        </p>
      )}
      <ul className="timeline run-events">
        {run.invocationSource !== 'checkout' && events.data.length < RUN_EVENTS_LIMIT && (
          <TimelineItem icon={Clock} actor="The engine" at={run.createdAt}>
            queued {agentName}'s run
            {run.invocationSource && ` (${runSourceLabel(run.invocationSource).toLowerCase()})`}
          </TimelineItem>
        )}
        {entries.map((entry) => {
          const sentence = entrySentence(entry, names);
          const aboutThisRun = entry.entityType === 'heartbeat_run' && entry.entityId === run.runId;
          const link = aboutThisRun ? null : entryLink(companyId, entry);
          // The entry that ended the run carries its error code: the run says it in words.
          const ending = aboutThisRun && entry.action === `heartbeat_run.${run.status}` && run.errorHelp;
          return (
            <TimelineItem
              key={entry.id}
              avatar={
                entry.actorType === 'agent' ? (
                  <AgentAvatar id={entry.actorId} name={sentence.actor} size={24} />
                ) : undefined
              }
              icon={LIFECYCLE_ICONS[entry.action] ?? (entry.actorType === 'user' ? User : Cog)}
              actor={sentence.actor}
              at={entry.createdAt}
              body={ending ? <RunFailure run={{ errorHelp: run.errorHelp }} /> : undefined}
            >
              {sentence.verb} {link ? <Link to={link}>{sentence.subject}</Link> : sentence.subject}
              {sentence.rest && ` ${sentence.rest}`}
            </TimelineItem>
          );
        })}
      </ul>
    </>
  );
}

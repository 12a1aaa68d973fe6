// The audit trail, newest first, as sentences ("Dev moved NOR-12 to Done"), entries of one run under
// that run's header, each with a details drawer in words. Filters are chips kept in the URL (a
// filtered view survives a reload and can be shared); the feed is live; the current filter exports
// as CSV.
import { useQuery } from '@tanstack/react-query';
import { Download, History, PanelRight, Play } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { EmptyState } from '../../components/display/EmptyState';
import { ErrorState } from '../../components/display/ErrorState';
import { RelativeTime } from '../../components/display/RelativeTime';
import { runHref } from '../../components/runs/run-href';
import { Button, IconButton } from '../../components/ui/Button';
import { Sheet } from '../../components/ui/Dialog';
import { Icon } from '../../components/ui/Icon';
import { toast } from '../../components/ui/Toast';
import { errorMessage } from '../../api/client';
import { plural } from '../../lib/format';
import { activityQuery } from '../../queries/activity';
import { useAgentNames } from '../../queries/agents';
import { meQuery } from '../../queries/instance';
import { exportActivity, EXPORT_MAX } from './activity-csv';
import { entryLink } from '../../components/activity/activity-links';
import { type Entry, entrySentence, type Names, sentenceText } from '../../components/activity/activity-sentence';
import { ActivityFilters, FILTER_KEYS, type FilterKey, type Filters } from './ActivityFilters';
import { EntryDetails } from './EntryDetails';

const PAGE = 200;
const MAX = 1000;

type ActorType = 'agent' | 'user' | 'system';
type Listed = Entry & { id: string; createdAt: string };

/** Consecutive entries of one run, under that run's header; entries outside a run stand alone. */
function groupByRun(entries: Listed[]): { runId: string | null; entries: Listed[] }[] {
  const groups: { runId: string | null; entries: Listed[] }[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (entry.runId && last?.runId === entry.runId) last.entries.push(entry);
    else groups.push({ runId: entry.runId, entries: [entry] });
  }
  return groups;
}

export function ActivityPage() {
  const { companyId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const [limit, setLimit] = useState(PAGE);
  const [openId, setOpenId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, search.get(key) ?? ''])) as Filters;
  const [actorPrefix, actorId] = filters.actor.split(':') as [ActorType | '', string | undefined];
  const actorType = (filters.actorType || actorPrefix) as ActorType | '';
  const query = {
    ...(filters.entityType && { entityType: filters.entityType }),
    ...(filters.entityId && { entityId: filters.entityId }),
    ...(filters.action && { action: filters.action }),
    ...(filters.agentId && { agentId: filters.agentId }),
    ...(actorType && { actorType }),
    ...(actorId && { actorId }),
  };
  const activity = useQuery(activityQuery(companyId, { ...query, limit }));
  const { agents, knownName } = useAgentNames(companyId);
  const me = useQuery(meQuery());
  const names: Names = { agent: knownName, me: me.data?.user.id };
  const setFilter = (key: FilterKey, value: string) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(key, value);
        else next.delete(key);
        // An acting agent and an actor kind would contradict each other: the last one picked counts.
        if (value && key === 'actor') next.delete('actorType');
        if (value && key === 'actorType') next.delete('actor');
        return next;
      },
      { replace: true },
    );
  const filtered = Object.values(filters).some(Boolean);
  const entries = (activity.data ?? []) as Listed[];
  const open = entries.find((entry) => entry.id === openId);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { count, cut } = await exportActivity(companyId, query, names);
      toast({
        tone: 'success',
        title: `Exported ${plural(count, 'entry', 'entries')}`,
        ...(cut && {
          description: `The feed returns at most the newest ${EXPORT_MAX.toLocaleString()} entries; narrow the filters to export older ones.`,
        }),
      });
    } catch (error) {
      toast({ tone: 'error', title: 'The export failed', description: `${errorMessage(error)} Try again.` });
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="page activity-page">
      <PageHeader
        title="Activity"
        actions={
          <Button icon={Download} onClick={exportCsv} loading={exporting}>
            {exporting ? 'Exporting…' : 'Export CSV'}
          </Button>
        }
      >
        <p className="muted">Everything that happened in the company, newest first.</p>
      </PageHeader>
      <ActivityFilters
        filters={filters}
        setFilter={setFilter}
        clear={() => setSearch({}, { replace: true })}
        agents={agents}
        actions={[...new Set(entries.map((entry) => entry.action))]}
      />
      {activity.isPending ? (
        <Loading label="Loading activity" />
      ) : activity.isError ? (
        <ErrorState error={activity.error} title="Activity could not be loaded" retry={() => activity.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState icon={History} title={filtered ? 'No entries match these filters' : 'Nothing has happened yet'}>
          {filtered
            ? 'Remove a filter chip to see more.'
            : 'Entries appear here as agents and the board work: issues, runs, approvals, budgets.'}
        </EmptyState>
      ) : (
        <>
          <ol className="activity-feed" aria-label="Activity entries, newest first">
            {groupByRun(entries).map((group) =>
              group.runId ? (
                <li key={`run-${group.entries[0]?.id}`} className="activity-run">
                  <RunHeader companyId={companyId} runId={group.runId} entry={group.entries[0]} names={names} />
                  <ol
                    className="activity-feed"
                    aria-label={`${runName(group.entries[0], names)}: ${plural(group.entries.length, 'entry', 'entries')}`}
                  >
                    {group.entries.map((entry) => (
                      <EntryRow key={entry.id} companyId={companyId} entry={entry} names={names} onOpen={setOpenId} />
                    ))}
                  </ol>
                </li>
              ) : (
                <Fragment key={group.entries[0]?.id}>
                  {group.entries.map((entry) => (
                    <EntryRow key={entry.id} companyId={companyId} entry={entry} names={names} onOpen={setOpenId} />
                  ))}
                </Fragment>
              ),
            )}
          </ol>
          {entries.length === limit && limit < MAX && (
            <Button onClick={() => setLimit((current) => Math.min(MAX, current + PAGE))}>Show older entries</Button>
          )}
          {entries.length === MAX && (
            <p className="muted">Showing the newest {MAX} entries; narrow the filters to see older ones.</p>
          )}
        </>
      )}
      <Sheet
        open={Boolean(open)}
        onOpenChange={(next) => !next && setOpenId(null)}
        title={open ? sentenceText(entrySentence(open, names)) : 'Entry'}
      >
        {open && <EntryDetails companyId={companyId} entry={open} names={names} />}
      </Sheet>
    </div>
  );
}

function runName(entry: Listed | undefined, names: Names): string {
  const agentId = entry?.agentId ?? (entry?.actorType === 'agent' ? entry.actorId : null);
  const name = agentId ? names.agent(agentId) : undefined;
  return name ? `${name}'s run` : 'A run';
}

function RunHeader({
  companyId,
  runId,
  entry,
  names,
}: {
  companyId: string;
  runId: string;
  entry: Listed | undefined;
  names: Names;
}) {
  return (
    <div className="activity-run-header">
      <Icon icon={Play} size={14} />
      <Link to={runHref(companyId, runId)}>{runName(entry, names)}</Link>
    </div>
  );
}

function EntryRow({
  companyId,
  entry,
  names,
  onOpen,
}: {
  companyId: string;
  entry: Listed;
  names: Names;
  onOpen: (id: string) => void;
}) {
  const sentence = entrySentence(entry, names);
  const link = entryLink(companyId, entry);
  const agentName = entry.actorType === 'agent' ? names.agent(entry.actorId) : undefined;
  return (
    <li className="activity-entry">
      <span className="activity-entry-lead" aria-hidden="true">
        <AgentAvatar id={entry.actorType === 'agent' ? entry.actorId : undefined} name={sentence.actor} size={20} />
      </span>
      <p className="activity-sentence">
        {agentName ? (
          <Link to={`/c/${companyId}/agents/${entry.actorId}`} className="activity-actor">
            {sentence.actor}
          </Link>
        ) : (
          <span className="activity-actor">{sentence.actor}</span>
        )}{' '}
        {sentence.verb} {link ? <Link to={link}>{sentence.subject}</Link> : sentence.subject}
        {sentence.rest && ` ${sentence.rest}`}
      </p>
      <RelativeTime at={entry.createdAt} className="activity-time muted" />
      <IconButton
        icon={PanelRight}
        size="sm"
        aria-label={`Details: ${sentenceText(sentence)}`}
        onClick={() => onOpen(entry.id)}
      />
    </li>
  );
}

// The audit trail, newest first, filtered by what it is about, the action and who acted. Filters
// live in the URL (a filtered view survives a reload and can be shared); the feed is live.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { fullTime, timeAgo } from '../../lib/format';
import { activityQuery } from '../../queries/activity';
import { useAgentNames } from '../../queries/agents';
import { entryLabel, entryLink } from './activity-links';

const ENTITY_TYPES = [
  'issue',
  'agent',
  'approval',
  'heartbeat_run',
  'budget_incident',
  'budget_policy',
  'cost_event',
  'project',
  'goal',
  'routine',
  'secret',
  'skill',
  'company',
];
const PAGE = 200;
const MAX = 1000;

type ActorType = 'agent' | 'user' | 'system';

export function ActivityPage() {
  const { companyId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const [limit, setLimit] = useState(PAGE);
  const filters = {
    entityType: search.get('entityType') ?? '',
    entityId: search.get('entityId') ?? '',
    action: search.get('action') ?? '',
    actor: search.get('actor') ?? '',
    agentId: search.get('agentId') ?? '',
  };
  const [actorType, actorId] = filters.actor.split(':') as [ActorType | '', string | undefined];
  const query = {
    limit,
    ...(filters.entityType && { entityType: filters.entityType }),
    ...(filters.entityId && { entityId: filters.entityId }),
    ...(filters.action && { action: filters.action }),
    ...(filters.agentId && { agentId: filters.agentId }),
    ...(actorType && { actorType }),
    ...(actorId && { actorId }),
  };
  const activity = useQuery(activityQuery(companyId, query));
  const { agents, nameOf: agentName } = useAgentNames(companyId);
  const setFilter = (name: string, value: string) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const [actionDraft, setActionDraft] = useState(filters.action);
  const submitAction = (event: FormEvent) => {
    event.preventDefault();
    setFilter('action', actionDraft.trim());
  };
  const filtered = Object.values(filters).some(Boolean);
  const base = `/c/${companyId}`;

  return (
    <div className="page">
      <PageHeader title="Activity">
        <p className="muted">Everything that happened in the company, newest first.</p>
      </PageHeader>
      <form className="activity-filters" onSubmit={submitAction} aria-label="Activity filters">
        <div className="field">
          <label htmlFor="activity-entity">About</label>
          <select
            id="activity-entity"
            value={filters.entityType}
            onChange={(event) => setFilter('entityType', event.target.value)}
          >
            <option value="">Anything</option>
            {[...new Set([...ENTITY_TYPES, ...(filters.entityType ? [filters.entityType] : [])])].map((type) => (
              <option key={type} value={type}>
                {type.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-actor">Actor</label>
          <select
            id="activity-actor"
            value={filters.actor}
            onChange={(event) => setFilter('actor', event.target.value)}
          >
            <option value="">Anyone</option>
            <option value="user">The board</option>
            <option value="system">The system</option>
            {agents.map((agent) => (
              <option key={agent.id} value={`agent:${agent.id}`}>
                {agent.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-agent">Involving</label>
          <select
            id="activity-agent"
            value={filters.agentId}
            onChange={(event) => setFilter('agentId', event.target.value)}
          >
            <option value="">Any agent</option>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-action">Action</label>
          <input
            id="activity-action"
            list="activity-actions"
            value={actionDraft}
            onChange={(event) => setActionDraft(event.target.value)}
            placeholder="e.g. issue.updated"
          />
          <datalist id="activity-actions">
            {[...new Set(activity.data?.map((entry) => entry.action))].map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
        </div>
        <button type="submit">Apply</button>
        {filters.entityId && (
          <button type="button" onClick={() => setFilter('entityId', '')}>
            Only {filters.entityType || 'record'} {filters.entityId.slice(0, 8)} ✕
          </button>
        )}
        {filtered && (
          <button
            type="button"
            onClick={() => {
              setActionDraft('');
              setSearch({}, { replace: true });
            }}
          >
            Clear filters
          </button>
        )}
      </form>
      {activity.isPending ? (
        <Loading label="Loading activity" />
      ) : activity.isError ? (
        <ErrorNotice error={activity.error} title="Activity could not be loaded" retry={() => activity.refetch()} />
      ) : activity.data.length === 0 ? (
        <p className="inbox-empty">{filtered ? 'No entries match these filters.' : 'Nothing has happened yet.'}</p>
      ) : (
        <>
          <table className="table">
            <caption className="inbox-sr">Activity entries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">About</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {activity.data.map((entry) => {
                const link = entryLink(companyId, entry);
                const label = entryLabel(entry, agentName);
                const details = entry.details ? JSON.stringify(entry.details) : '';
                return (
                  <tr key={entry.id}>
                    <td>
                      <time dateTime={entry.createdAt} title={fullTime(entry.createdAt)}>
                        {timeAgo(entry.createdAt)}
                      </time>
                    </td>
                    <td>
                      {entry.actorType === 'agent' ? (
                        <Link to={`${base}/agents/${entry.actorId}`}>{agentName(entry.actorId)}</Link>
                      ) : entry.actorType === 'user' ? (
                        'Board'
                      ) : (
                        <span className="muted">{entry.actorId}</span>
                      )}
                    </td>
                    <td>
                      <code>{entry.action}</code>
                    </td>
                    <td>{link ? <Link to={link}>{label}</Link> : label}</td>
                    <td
                      className="activity-details muted mono"
                      title={details.length > 160 ? details.slice(0, 2000) : undefined}
                    >
                      {details.length > 160 ? `${details.slice(0, 160)}…` : details}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {activity.data.length === limit && limit < MAX && (
            <button type="button" onClick={() => setLimit((current) => Math.min(MAX, current + PAGE))}>
              Show older entries
            </button>
          )}
          {activity.data.length === MAX && (
            <p className="muted">Showing the newest {MAX} entries; narrow the filters to see older ones.</p>
          )}
        </>
      )}
    </div>
  );
}

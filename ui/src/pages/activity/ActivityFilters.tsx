// The activity filters as chips kept in the URL: each active filter is a chip that removes itself,
// and "+ Filter" picks a kind of filter, then its value. Kinds: actor kind, a particular acting
// agent, what it is about, the action, an agent involved; a record (entityId) arrives by link only.
import { ListFilter, Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { enumLabel } from '../../lib/format';
import { Button } from '../../components/ui/Button';
import { Icon } from '../../components/ui/Icon';
import { Popover } from '../../components/ui/Popover';
import { Select } from '../../components/ui/Combobox';

export type FilterKey = 'actorType' | 'actor' | 'entityType' | 'action' | 'agentId' | 'entityId';
export type Filters = Record<FilterKey, string>;

export const FILTER_KEYS: FilterKey[] = ['actorType', 'actor', 'entityType', 'action', 'agentId', 'entityId'];

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
const ACTOR_KINDS = [
  { value: 'agent', label: 'Agents' },
  { value: 'user', label: 'The board' },
  { value: 'system', label: 'The system' },
];
const KIND_LABELS: Record<Exclude<FilterKey, 'entityId'>, string> = {
  actorType: 'Actor kind',
  actor: 'Actor',
  entityType: 'About',
  action: 'Action',
  agentId: 'Involving',
};

const entityWords = (type: string) => (type === 'heartbeat_run' ? 'Run' : enumLabel(type));
/** `issue.updated` → "Issue updated". */
export const actionWords = (action: string) => enumLabel(action.replace('.', '_'));

interface Agent {
  id: string;
  name: string;
}

export function ActivityFilters({
  filters,
  setFilter,
  clear,
  agents,
  actions,
}: {
  filters: Filters;
  setFilter: (key: FilterKey, value: string) => void;
  clear: () => void;
  agents: Agent[];
  /** Actions seen in the loaded entries (the feed lists no others). */
  actions: string[];
}) {
  const agentName = (id: string) => agents.find((agent) => agent.id === id)?.name ?? 'an agent';
  const words: Record<FilterKey, (value: string) => string> = {
    actorType: (value) => ACTOR_KINDS.find((kind) => kind.value === value)?.label ?? enumLabel(value),
    actor: (value) => (value.startsWith('agent:') ? agentName(value.slice(6)) : enumLabel(value)),
    entityType: entityWords,
    action: actionWords,
    agentId: agentName,
    entityId: () => 'this record',
  };
  const active = FILTER_KEYS.filter((key) => filters[key]);
  const optionsOf = (key: Exclude<FilterKey, 'entityId'>) => {
    switch (key) {
      case 'actorType':
        return ACTOR_KINDS;
      case 'actor':
        return agents.map((agent) => ({ value: `agent:${agent.id}`, label: agent.name }));
      case 'entityType':
        return [...new Set([...ENTITY_TYPES, filters.entityType].filter(Boolean))].map((type) => ({
          value: type,
          label: entityWords(type),
        }));
      case 'action':
        return [...new Set([...actions, filters.action].filter(Boolean))]
          .sort()
          .map((action) => ({ value: action, label: actionWords(action) }));
      case 'agentId':
        return agents.map((agent) => ({ value: agent.id, label: agent.name }));
    }
  };
  return (
    <div className="activity-chips" role="group" aria-label="Activity filters">
      {active.map((key) => (
        <span key={key} className="filter-chip">
          <span>
            {key === 'entityId' ? 'Only' : KIND_LABELS[key]}: {words[key](filters[key])}
          </span>
          <button
            type="button"
            className="filter-chip-remove"
            aria-label={`Remove filter ${key === 'entityId' ? 'Only' : KIND_LABELS[key]}: ${words[key](filters[key])}`}
            onClick={() => setFilter(key, '')}
          >
            <Icon icon={X} size={14} />
          </button>
        </span>
      ))}
      <AddFilter optionsOf={optionsOf} onAdd={setFilter} />
      {active.length > 1 && (
        <Button size="sm" variant="ghost" onClick={clear}>
          Clear filters
        </Button>
      )}
    </div>
  );
}

function AddFilter({
  optionsOf,
  onAdd,
}: {
  optionsOf: (key: Exclude<FilterKey, 'entityId'>) => { value: string; label: string }[];
  onAdd: (key: FilterKey, value: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<Exclude<FilterKey, 'entityId'>>('actorType');
  const id = useId();
  const kinds = (Object.keys(KIND_LABELS) as (keyof typeof KIND_LABELS)[]).map((key) => ({
    value: key,
    label: KIND_LABELS[key],
  }));
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label="Add a filter"
      className="filter-popover"
      trigger={
        <Button size="sm" variant="ghost" icon={Plus}>
          Filter
        </Button>
      }
    >
      <div className="filter-form">
        <div className="field">
          <label htmlFor={`${id}-kind`}>Filter by</label>
          <Select id={`${id}-kind`} value={kind} onChange={setKind} options={kinds} size="sm" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-value`}>{KIND_LABELS[kind]}</label>
          <Select
            key={kind}
            id={`${id}-value`}
            value={null}
            onChange={(value) => {
              onAdd(kind, value);
              setOpen(false);
            }}
            options={optionsOf(kind)}
            placeholder={`Pick ${KIND_LABELS[kind].toLowerCase()}…`}
            emptyText="Nothing to pick"
            size="sm"
          />
        </div>
        <p className="hint muted">
          <Icon icon={ListFilter} size={14} /> Filters combine; each one is kept in the address.
        </p>
      </div>
    </Popover>
  );
}

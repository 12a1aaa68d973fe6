// The filters, view switch, grouping and search: their values live in the address. Filters are chips
// ("+ Filter" adds one: a field, then its values); no native select is left.
import { useQuery } from '@tanstack/react-query';
import { CircleDot, FolderKanban, Goal, LayoutList, SquareKanban, Tag, UserRound } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { FilterChips, type FilterField } from '../../components/display/FilterChips';
import { StatusIcon } from '../../components/display/StatusIcon';
import { LabelDot } from '../../components/labels/LabelChip';
import { Button } from '../../components/ui/Button';
import { Select } from '../../components/ui/Combobox';
import { issueStatuses } from '../../lib/statuses';
import { agentsQuery } from '../../queries/agents';
import { goalsQuery } from '../../queries/goals';
import { labelsQuery } from '../../queries/labels';
import { projectsQuery } from '../../queries/projects';
import { Decorative } from './Decorative';
import { GROUPINGS, type Grouping, type IssuesView, type useIssuesView } from './url-state';

type Update = ReturnType<typeof useIssuesView>[1];

const GROUP_LABELS: Record<Grouping, string> = {
  none: 'No grouping',
  status: 'Status',
  assignee: 'Assignee',
  project: 'Project',
  priority: 'Priority',
};
/** Typing settles this long before the address (and the search) follows. */
const TYPING_MS = 250;

/** The chip fields, in the address's words: `status` holds several values (comma-separated), the rest one. */
const FIELD_PARAMS = ['status', 'assignee', 'project', 'goal', 'label'] as const;
type FieldParam = (typeof FIELD_PARAMS)[number];

export function FilterBar({ companyId, view, update }: { companyId: string; view: IssuesView; update: Update }) {
  const agents = useQuery(agentsQuery(companyId));
  const projects = useQuery(projectsQuery(companyId));
  const goals = useQuery(goalsQuery(companyId));
  const labels = useQuery(labelsQuery(companyId));
  const { filters } = view;
  const failed = [agents, projects, goals, labels].find((query) => query.isError);
  const groupId = useId();
  const loading = (query: { isPending: boolean }) => (query.isPending ? 'Loading…' : undefined);

  const fields: FilterField[] = [
    {
      id: 'status',
      label: 'Status',
      icon: CircleDot,
      multiple: true,
      options: issueStatuses.list.map((status) => ({
        value: status,
        label: issueStatuses.label(status),
        leading: (
          <Decorative>
            <StatusIcon kind="issue" status={status} size={14} />
          </Decorative>
        ),
      })),
    },
    {
      id: 'assignee',
      label: 'Assignee',
      icon: UserRound,
      unknownValue: loading(agents) ?? 'Unknown agent',
      options: [
        { value: 'me', label: 'Me' },
        ...(agents.data ?? []).map((agent) => ({
          value: agent.id,
          label: agent.name,
          leading: (
            <Decorative>
              <AgentAvatar id={agent.id} name={agent.name} size={20} />
            </Decorative>
          ),
        })),
      ],
    },
    {
      id: 'project',
      label: 'Project',
      icon: FolderKanban,
      unknownValue: loading(projects) ?? 'Unknown project',
      options: (projects.data ?? []).map((project) => ({ value: project.id, label: project.name })),
    },
    {
      id: 'goal',
      label: 'Goal',
      icon: Goal,
      unknownValue: loading(goals) ?? 'Unknown goal',
      options: (goals.data ?? []).map((goal) => ({ value: goal.id, label: goal.title })),
    },
    {
      id: 'label',
      label: 'Label',
      icon: Tag,
      unknownValue: loading(labels) ?? 'A deleted label',
      options: (labels.data ?? []).map((label) => ({
        value: label.id,
        label: label.name,
        leading: <LabelDot color={label.color} />,
      })),
    },
  ];
  const value: Record<FieldParam, string[]> = {
    status: filters.status,
    assignee: filters.assignee ? [filters.assignee] : [],
    project: filters.project ? [filters.project] : [],
    goal: filters.goal ? [filters.goal] : [],
    label: filters.label ? [filters.label] : [],
  };
  return (
    <div className="issue-toolbar">
      <div className="issue-view-switch" role="group" aria-label="View">
        {(['list', 'board'] as const).map((name) => (
          <Button
            key={name}
            size="sm"
            variant="ghost"
            icon={name === 'list' ? LayoutList : SquareKanban}
            aria-pressed={view.view === name}
            onClick={() => update({ view: name === 'list' ? undefined : name })}
          >
            {name === 'list' ? 'List' : 'Board'}
          </Button>
        ))}
      </div>
      <SearchField value={filters.q ?? ''} onChange={(q) => update({ q })} />
      {view.view === 'list' && (
        <div className="issue-group-by">
          <label htmlFor={groupId}>Group by</label>
          <Select
            id={groupId}
            size="sm"
            value={view.group}
            onChange={(group) => update({ group: group === 'none' ? undefined : group })}
            options={GROUPINGS.map((group) => ({ value: group, label: GROUP_LABELS[group] }))}
          />
        </div>
      )}
      <FilterChips
        fields={fields}
        value={value}
        onChange={(field, values) => update({ [field]: values.join(',') || undefined })}
      />
      {failed && (
        <ErrorNotice
          error={failed.error}
          title="The filter choices could not be loaded"
          retry={() => void failed.refetch()}
        />
      )}
    </div>
  );
}

/** Text that follows the address, but writes to it only once typing pauses. */
function useSettledText(value: string, onChange: (value: string) => void): [string, (value: string) => void] {
  const [draft, setDraft] = useState(value);
  // The latest callback, so a parent's new closure each render does not restart the pause.
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => changed.current(draft), TYPING_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);
  return [draft, setDraft];
}

function SearchField({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const [draft, setDraft] = useSettledText(value, onChange);
  return (
    <input
      type="search"
      className="issue-search-input"
      aria-label="Search"
      value={draft}
      placeholder="Search title, identifier, text…"
      onChange={(event) => setDraft(event.target.value)}
    />
  );
}

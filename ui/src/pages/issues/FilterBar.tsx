// The filters, view switch and grouping: labelled controls whose values live in the address.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { issueStatuses } from '../../lib/statuses';
import { agentsQuery } from '../../queries/agents';
import { goalsQuery } from '../../queries/goals';
import { projectsQuery } from '../../queries/projects';
import { GROUPINGS, type Grouping, type IssuesView, type useIssuesView } from './url-state';

type Update = ReturnType<typeof useIssuesView>[1];

const GROUP_LABELS: Record<Grouping, string> = {
  none: 'No grouping',
  status: 'Status',
  assignee: 'Assignee',
  project: 'Project',
  priority: 'Priority',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Typing settles this long before the address (and the search) follows. */
const TYPING_MS = 250;

export function FilterBar({ companyId, view, update }: { companyId: string; view: IssuesView; update: Update }) {
  const agents = useQuery(agentsQuery(companyId));
  const projects = useQuery(projectsQuery(companyId));
  const goals = useQuery(goalsQuery(companyId));
  const { filters } = view;
  const failed = [agents, projects, goals].find((query) => query.isError);
  return (
    <div className="issue-toolbar">
      <div className="issue-view-switch" role="group" aria-label="View">
        {(['list', 'board'] as const).map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={view.view === name}
            onClick={() => update({ view: name === 'list' ? undefined : name })}
          >
            {name === 'list' ? 'List' : 'Board'}
          </button>
        ))}
      </div>
      <SearchField value={filters.q ?? ''} onChange={(q) => update({ q })} />
      <Field label="Status">
        {(id) => (
          <select
            id={id}
            value={filters.status.length === 1 ? filters.status[0] : filters.status.length > 1 ? 'several' : ''}
            onChange={(event) =>
              update({ status: event.target.value === 'several' ? filters.status.join(',') : event.target.value })
            }
          >
            <option value="">Any</option>
            {filters.status.length > 1 && (
              <option value="several">{filters.status.map(issueStatuses.label).join(', ')}</option>
            )}
            {issueStatuses.list.map((status) => (
              <option key={status} value={status}>
                {issueStatuses.label(status)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Assignee">
        {(id) => (
          <select id={id} value={filters.assignee ?? ''} onChange={(event) => update({ assignee: event.target.value })}>
            <option value="">Anyone</option>
            <option value="me">Me</option>
            <ChosenOption
              value={filters.assignee === 'me' ? undefined : filters.assignee}
              known={agents.data?.some((agent) => agent.id === filters.assignee)}
              noun="agent"
            />
            {agents.data?.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Project">
        {(id) => (
          <select id={id} value={filters.project ?? ''} onChange={(event) => update({ project: event.target.value })}>
            <option value="">Any</option>
            <ChosenOption
              value={filters.project}
              known={projects.data?.some((project) => project.id === filters.project)}
              noun="project"
            />
            {projects.data?.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Goal">
        {(id) => (
          <select id={id} value={filters.goal ?? ''} onChange={(event) => update({ goal: event.target.value })}>
            <option value="">Any</option>
            <ChosenOption
              value={filters.goal}
              known={goals.data?.some((goal) => goal.id === filters.goal)}
              noun="goal"
            />
            {goals.data?.map((goal) => (
              <option key={goal.id} value={goal.id}>
                {goal.title}
              </option>
            ))}
          </select>
        )}
      </Field>
      <LabelField value={filters.label ?? ''} onChange={(label) => update({ label })} />
      {view.view === 'list' && (
        <Field label="Group by">
          {(id) => (
            <select
              id={id}
              value={view.group}
              onChange={(event) => update({ group: event.target.value === 'none' ? undefined : event.target.value })}
            >
              {GROUPINGS.map((group) => (
                <option key={group} value={group}>
                  {GROUP_LABELS[group]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
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

/**
 * The filter in the address while its choices are loading, or when it names none of them (a
 * deleted project, a link from elsewhere): a select cannot show a value it has no option for, and
 * would claim "Any" while the list is filtered.
 */
function ChosenOption({ value, known, noun }: { value: string | undefined; known: boolean | undefined; noun: string }) {
  if (!value || known) return null;
  return <option value={value}>{known === undefined ? 'Loading…' : `Unknown ${noun}`}</option>;
}

/** A labelled control: the label names it by id (wrapped in a label, a select's options would join its name). */
function Field({
  label,
  className = '',
  children,
}: {
  label: string;
  className?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={`issue-filter ${className}`}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
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
    <Field label="Search" className="issue-search">
      {(id) => (
        <input
          id={id}
          type="search"
          value={draft}
          placeholder="Title, identifier, text…"
          onChange={(event) => setDraft(event.target.value)}
        />
      )}
    </Field>
  );
}

/** Labels have no route to list them (SPEC leaves them out), so the filter takes a label id. */
function LabelField({ value, onChange }: { value: string; onChange: (label: string) => void }) {
  const [draft, setDraft] = useSettledText(value, (next) => {
    if (next === '' || UUID.test(next.trim())) onChange(next.trim());
  });
  const invalid = draft.trim() !== '' && !UUID.test(draft.trim());
  return (
    <Field label="Label ID">
      {(id) => (
        <>
          <input
            id={id}
            value={draft}
            aria-invalid={invalid}
            aria-describedby={invalid ? 'label-filter-hint' : undefined}
            placeholder="Label UUID"
            onChange={(event) => setDraft(event.target.value)}
          />
          {invalid && (
            <span id="label-filter-hint" className="hint">
              A label id is a UUID
            </span>
          )}
        </>
      )}
    </Field>
  );
}

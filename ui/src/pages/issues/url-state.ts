// The page's state lives in the address (view, grouping, filters), so a link or a reload shows the
// same thing. Parsing is forgiving: an unknown value is dropped, never an error page.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { issueStatuses, type IssueStatus } from '../../lib/statuses';

export const VIEWS = ['list', 'board'] as const;
export type View = (typeof VIEWS)[number];
export const GROUPINGS = ['none', 'status', 'assignee', 'project', 'priority'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface IssueFilters {
  status: IssueStatus[];
  /** An agent id, or `me` (issues assigned to the signed-in board user). */
  assignee?: string;
  project?: string;
  goal?: string;
  label?: string;
  q?: string;
}

export const SORT_COLUMNS = ['identifier', 'title', 'status', 'priority', 'assignee', 'updated'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
/** A column and a direction: `sort=title` (ascending) or `sort=-updated` (descending) in the address. */
export interface IssueSort {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

export interface IssuesView {
  view: View;
  group: Grouping;
  /** null: the list's own order (priority, then most recently updated). */
  sort: IssueSort | null;
  filters: IssueFilters;
}

function parseSort(value: string | null): IssueSort | null {
  if (!value) return null;
  const direction = value.startsWith('-') ? 'desc' : 'asc';
  const column = value.replace(/^-/, '');
  return (SORT_COLUMNS as readonly string[]).includes(column) ? { column: column as SortColumn, direction } : null;
}

export const sortParam = (sort: { column: string; direction: 'asc' | 'desc' } | null): string | undefined =>
  sort ? `${sort.direction === 'desc' ? '-' : ''}${sort.column}` : undefined;

const pick = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
const text = (value: string | null): string | undefined => value?.trim() || undefined;

export function parseView(params: URLSearchParams): IssuesView {
  return {
    view: pick(params.get('view'), VIEWS, 'list'),
    group: pick(params.get('group'), GROUPINGS, 'none'),
    sort: parseSort(params.get('sort')),
    filters: {
      status: (params.get('status') ?? '').split(',').filter(issueStatuses.is),
      assignee: text(params.get('assignee')),
      project: text(params.get('project')),
      goal: text(params.get('goal')),
      label: text(params.get('label')),
      q: text(params.get('q')),
    },
  };
}

/** The list route's query for these filters (without paging). */
export function listQuery(filters: IssueFilters) {
  const { status, assignee, project, goal, label, q } = filters;
  return {
    ...(status.length > 0 && { status: status.join(',') }),
    ...(assignee === 'me' ? { assigneeUserId: 'me' } : assignee ? { assigneeAgentId: assignee } : {}),
    ...(project && { projectId: project }),
    ...(goal && { goalId: goal }),
    ...(label && { labelId: label }),
    ...(q && { q }),
  };
}

export const hasFilters = (filters: IssueFilters): boolean =>
  filters.status.length > 0 ||
  Boolean(filters.assignee || filters.project || filters.goal || filters.label || filters.q);

/** The view from the address, and a setter that changes some of it (replacing the history entry for typing). */
export function useIssuesView(): [
  IssuesView,
  (change: Partial<Record<'view' | 'group' | 'sort' | keyof IssueFilters, string | undefined>>) => void,
] {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => parseView(params), [params]);
  const update = useCallback(
    (change: Partial<Record<'view' | 'group' | 'sort' | keyof IssueFilters, string | undefined>>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(change)) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          return next;
        },
        { replace: 'q' in change },
      );
    },
    [setParams],
  );
  return [view, update];
}

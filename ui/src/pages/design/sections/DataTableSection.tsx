import { useMemo, useState } from 'react';
import { DataTable, type DataTableColumn, type SortState } from '../../../components/display/DataTable';
import { StatusPill } from '../../../components/display/StatusPill';
import { Button } from '../../../components/ui/Button';
import { Row } from './Row';

interface Task {
  id: string;
  name: string;
  owner: string;
  state: 'Open' | 'Done';
  hours: number;
}

const TASKS: Task[] = Array.from({ length: 200 }, (_, i) => ({
  id: `task-${i + 1}`,
  name: ['Write the launch post', 'Fix the hero image', 'Plan the offsite', 'Hire a designer'][i % 4] ?? '',
  owner: ['Dev', 'Gus', 'Ana'][i % 3] ?? '',
  state: i % 5 === 0 ? 'Done' : 'Open',
  hours: (i * 7) % 40,
}));

const COLUMNS: DataTableColumn<Task>[] = [
  { id: 'name', header: 'Task', sortable: true, cell: (task) => `${task.name} #${task.id.slice(5)}` },
  { id: 'owner', header: 'Owner', width: '100px', sortable: true, hideNarrow: true, cell: (task) => task.owner },
  {
    id: 'state',
    header: 'State',
    width: '90px',
    cell: (task) => <StatusPill tone={task.state === 'Done' ? 'success' : 'neutral'}>{task.state}</StatusPill>,
  },
  {
    id: 'hours',
    header: 'Hours',
    width: '70px',
    align: 'end',
    sortable: true,
    firstDirection: 'desc',
    cell: (task) => task.hours,
  },
];

export function DataTableSection() {
  const [sort, setSort] = useState<SortState | null>({ column: 'hours', direction: 'desc' });
  const [selected, setSelected] = useState<Set<string>>(new Set(['task-2']));
  const [opened, setOpened] = useState('Nothing yet');
  const rows = useMemo(() => {
    if (!sort) return TASKS;
    const sign = sort.direction === 'asc' ? 1 : -1;
    const key = sort.column as 'name' | 'owner' | 'hours';
    return [...TASKS].sort((a, b) => sign * String(a[key]).localeCompare(String(b[key]), undefined, { numeric: true }));
  }, [sort]);
  return (
    <>
      <Row label="Sort, select (x, shift-click), j/k, Enter">
        <div className="design-table">
          <DataTable<Task>
            label="Tasks"
            rows={rows}
            columns={COLUMNS}
            rowKey={(task) => task.id}
            rowLabel={(task) => `${task.name} #${task.id.slice(5)}`}
            sort={sort}
            onSortChange={setSort}
            selected={selected}
            onSelectedChange={setSelected}
            onOpen={(task) => setOpened(`${task.name} #${task.id.slice(5)}`)}
            rowActions={(task) => (
              <Button size="sm" variant="ghost" tabIndex={-1} onClick={() => setOpened(`${task.name} (action)`)}>
                Open
              </Button>
            )}
          />
        </div>
      </Row>
      <Row label="State">
        <span role="status">
          {selected.size} selected · opened: {opened}
        </span>
      </Row>
      <Row label="Grouped, no selection">
        <div className="design-table">
          <DataTable<Task>
            label="Tasks by owner"
            rows={[...TASKS.slice(0, 12)].sort((a, b) => a.owner.localeCompare(b.owner))}
            columns={COLUMNS}
            rowKey={(task) => task.id}
            rowLabel={(task) => task.name}
            groupKey={(task) => task.owner}
            groupLabel={(owner) => owner}
          />
        </div>
      </Row>
    </>
  );
}

// A table of many rows: column headers that sort (aria-sort), optional row selection (a checkbox per
// row, all loaded rows from the header, shift-click for a range), actions shown on a row's hover or
// focus, optional group headings, and rows virtualised (only what is on screen is in the DOM) while
// keeping grid semantics (aria-rowcount/aria-rowindex). The grid is one tab stop: the focused row
// moves with j/k or the arrows, x or Space toggles its selection, Enter opens it.
//
// Scrolling renders only the rows that come into view: a row is a memoised component whose props are
// its own (the row object, its place, selected, tab stop) and stable functions, so a scroll tick, a
// focus move or a page of rows appended re-renders the rows whose props changed, not every row shown.
// That holds while the caller keeps `columns`, `rowLabel`, `rowActions` and `rowAttributes` stable
// (module constants, useMemo or useCallback); a new function each render re-renders every row.
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useStableHandler } from '../../lib/use-stable-handler';
import { Icon } from '../ui/Icon';

export type SortDirection = 'asc' | 'desc';
export interface SortState {
  column: string;
  direction: SortDirection;
}

export interface DataTableColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** A CSS grid track (`120px`, `minmax(0, 1fr)`); `auto` fits the content. */
  width?: string;
  /** Offers sorting from the header; the first click sorts this way (default asc). */
  sortable?: boolean;
  firstDirection?: SortDirection;
  align?: 'start' | 'end';
  /** Hidden on narrow screens (<= 720 px), where the row keeps the essentials. */
  hideNarrow?: boolean;
}

export interface DataTableProps<T> {
  /** Names the grid for screen readers. */
  label: string;
  rows: T[];
  columns: DataTableColumn<T>[];
  rowKey: (row: T) => string;
  /** The row's name in words, for its checkbox ("Select ACME-1"). */
  rowLabel: (row: T) => string;
  sort?: SortState | null;
  onSortChange?: (sort: SortState | null) => void;
  /** With both, rows get checkboxes and x selects. */
  selected?: ReadonlySet<string>;
  onSelectedChange?: (selected: Set<string>) => void;
  /** Enter on the focused row. */
  onOpen?: (row: T) => void;
  /** Shown at the end of a row on hover or focus (not on narrow screens, which have no hover). */
  rowActions?: (row: T) => ReactNode;
  /** Extra attributes on a row (data-* for tests and styling). */
  rowAttributes?: (row: T) => Record<`data-${string}`, string | undefined>;
  /** Consecutive rows sharing a key get one heading above them (the rows come grouped). */
  groupKey?: (row: T) => string;
  groupLabel?: (key: string) => string;
  rowHeight?: number;
  /** Called when the last rendered row is within `endThreshold` rows of the end (load the next page). */
  onEndReached?: () => void;
  endThreshold?: number;
  busy?: boolean;
  className?: string;
}

type Line<T> = { kind: 'group'; key: string; label: string; count: number } | { kind: 'row'; row: T; key: string };

const GROUP_HEIGHT = 32;

export function DataTable<T>({
  label,
  rows,
  columns,
  rowKey,
  rowLabel,
  sort,
  onSortChange,
  selected,
  onSelectedChange,
  onOpen,
  rowActions,
  rowAttributes,
  groupKey,
  groupLabel,
  rowHeight = 40,
  onEndReached,
  endThreshold = 30,
  busy,
  className = '',
}: DataTableProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const selectable = Boolean(selected && onSelectedChange);
  const lines = useMemo(() => toLines(rows, rowKey, groupKey, groupLabel), [rows, rowKey, groupKey, groupLabel]);
  const [active, setActive] = useState<string | null>(null);
  const pendingFocus = useRef<string | null>(null);
  const anchor = useRef<string | null>(null);
  // Where each row's key is in `lines`: the focused row's place without a scan of every line per render.
  const indexOfKey = useMemo(() => new Map(lines.map((line, index) => [line.key, index])), [lines]);
  const activeIndex = (active !== null ? indexOfKey.get(active) : undefined) ?? -1;
  const firstRowIndex = lines.findIndex((line) => line.kind === 'row');
  const tabStop = activeIndex >= 0 ? activeIndex : firstRowIndex;

  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (lines[index]?.kind === 'group' ? GROUP_HEIGHT : rowHeight),
    getItemKey: (index) => lines[index]?.key ?? index,
    overscan: 8,
  });
  const visible = virtualizer.getVirtualItems();
  const lastVisible = visible[visible.length - 1]?.index ?? 0;
  useEffect(() => {
    if (onEndReached && lines.length > 0 && lastVisible >= lines.length - endThreshold) onEndReached();
  }, [onEndReached, lastVisible, lines.length, endThreshold]);

  // A row moved to by key may be off screen (not rendered): scroll to it, then focus it once rendered.
  useLayoutEffect(() => {
    const key = pendingFocus.current;
    if (key === null) return;
    const element = scroller.current?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"]`);
    if (element) {
      pendingFocus.current = null;
      element.focus({ preventScroll: true });
    }
  });

  const focusLine = (index: number) => {
    const line = lines[index];
    if (!line || line.kind !== 'row') return;
    setActive(line.key);
    pendingFocus.current = line.key;
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };

  const step = (from: number, by: 1 | -1) => {
    let next = from + by;
    while (lines[next]?.kind === 'group') next += by;
    if (next >= 0 && next < lines.length) focusLine(next);
  };

  const rowKeys = useMemo(() => lines.flatMap((line) => (line.kind === 'row' ? [line.key] : [])), [lines]);
  const toggle = useStableHandler((key: string, range: boolean) => {
    if (!selected || !onSelectedChange) return;
    const next = new Set(selected);
    const from = anchor.current ? rowKeys.indexOf(anchor.current) : -1;
    const to = rowKeys.indexOf(key);
    const on = !selected.has(key);
    if (range && from >= 0 && to >= 0) {
      for (const between of rowKeys.slice(Math.min(from, to), Math.max(from, to) + 1)) {
        if (on) next.add(between);
        else next.delete(between);
      }
    } else if (on) next.add(key);
    else next.delete(key);
    anchor.current = key;
    onSelectedChange(next);
  });
  const selectedCount = useMemo(
    () => (selected ? rowKeys.filter((key) => selected.has(key)).length : 0),
    [rowKeys, selected],
  );
  const allSelected = rowKeys.length > 0 && selectedCount === rowKeys.length;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement;
    // Keys typed into a control inside a row (a menu, a checkbox) are that control's.
    const rowElement = target.closest<HTMLElement>('[data-row-key]');
    if (!rowElement || target !== rowElement) return;
    const index = Number(rowElement.dataset.index);
    const line = lines[index];
    if (!line || line.kind !== 'row') return;
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        event.preventDefault();
        step(index, 1);
        break;
      case 'k':
      case 'ArrowUp':
        event.preventDefault();
        step(index, -1);
        break;
      case 'Home':
        event.preventDefault();
        focusLine(firstRowIndex);
        break;
      case 'End':
        event.preventDefault();
        step(lines.length, -1);
        break;
      case 'x':
      case ' ':
        if (!selectable) return;
        event.preventDefault();
        toggle(line.key, event.shiftKey);
        break;
      case 'Enter':
        if (!onOpen) return;
        event.preventDefault();
        onOpen(line.row);
        break;
    }
  };

  const template = [
    ...(selectable ? ['32px'] : []),
    ...columns.map((column) => column.width ?? 'minmax(0, 1fr)'),
    ...(rowActions ? ['auto'] : []),
  ];
  const narrowTemplate = [
    ...(selectable ? ['32px'] : []),
    ...columns.filter((column) => !column.hideNarrow).map((column) => column.width ?? 'minmax(0, 1fr)'),
  ];
  const style = {
    '--dt-columns': template.join(' '),
    '--dt-columns-narrow': narrowTemplate.join(' '),
  } as CSSProperties;
  const colCount = template.length;

  const headerCheckbox = (
    <input
      type="checkbox"
      aria-label="Select all loaded rows"
      checked={allSelected}
      ref={(element) => {
        if (element) element.indeterminate = selectedCount > 0 && !allSelected;
      }}
      onChange={() => onSelectedChange?.(allSelected ? new Set() : new Set(rowKeys))}
    />
  );

  return (
    <div
      className={`data-table ${className}`}
      role="grid"
      aria-label={label}
      aria-rowcount={lines.length + 1}
      aria-colcount={colCount}
      aria-multiselectable={selectable || undefined}
      aria-busy={busy || undefined}
      style={style}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className="dt-head">
        <div role="row" aria-rowindex={1} className="dt-row dt-header-row">
          {selectable && (
            <div role="columnheader" className="dt-cell dt-check">
              {headerCheckbox}
            </div>
          )}
          {columns.map((column) => (
            <HeaderCell key={column.id} column={column} sort={sort} onSortChange={onSortChange} />
          ))}
          {rowActions && (
            <div role="columnheader" className="dt-cell dt-actions">
              <span className="visually-hidden">Actions</span>
            </div>
          )}
        </div>
      </div>
      <div ref={scroller} className="dt-body" role="rowgroup">
        <div className="dt-rows" style={{ height: virtualizer.getTotalSize() }}>
          {visible.map((item) => {
            const line = lines[item.index];
            // The virtualizer counts `lines` as of this render, so every index it gives has one.
            if (!line) return null;
            const place = { transform: `translateY(${item.start}px)`, height: item.size };
            if (line.kind === 'group') {
              return (
                <div key={line.key} role="row" aria-rowindex={item.index + 2} className="dt-row dt-group" style={place}>
                  <div role="gridcell" aria-colspan={colCount} className="dt-cell">
                    <span className="dt-group-label">{line.label}</span> <span className="count">{line.count}</span>
                  </div>
                </div>
              );
            }
            return (
              <BodyRow<T>
                key={line.key}
                row={line.row}
                rowKey={line.key}
                index={item.index}
                start={item.start}
                size={item.size}
                tabStop={item.index === tabStop}
                selectable={selectable}
                isSelected={selected?.has(line.key) ?? false}
                columns={columns}
                rowLabel={rowLabel}
                rowActions={rowActions}
                rowAttributes={rowAttributes}
                onFocusRow={setActive}
                onToggle={toggle}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface BodyRowProps<T> {
  row: T;
  rowKey: string;
  index: number;
  start: number;
  size: number;
  tabStop: boolean;
  selectable: boolean;
  isSelected: boolean;
  columns: DataTableColumn<T>[];
  rowLabel: (row: T) => string;
  rowActions: ((row: T) => ReactNode) | undefined;
  rowAttributes: ((row: T) => Record<`data-${string}`, string | undefined>) | undefined;
  onFocusRow: (key: string) => void;
  onToggle: (key: string, range: boolean) => void;
}

const BodyRow = memo(function BodyRow<T>({
  row,
  rowKey,
  index,
  start,
  size,
  tabStop,
  selectable,
  isSelected,
  columns,
  rowLabel,
  rowActions,
  rowAttributes,
  onFocusRow,
  onToggle,
}: BodyRowProps<T>) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selectable ? isSelected : undefined}
      tabIndex={tabStop ? 0 : -1}
      data-row-key={rowKey}
      data-index={index}
      className="dt-row dt-body-row"
      style={{ transform: `translateY(${start}px)`, height: size }}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onFocusRow(rowKey);
      }}
      {...rowAttributes?.(row)}
    >
      {selectable && (
        <div role="gridcell" className="dt-cell dt-check">
          <input
            type="checkbox"
            tabIndex={-1}
            aria-label={`Select ${rowLabel(row)}`}
            checked={isSelected}
            onClick={(event: MouseEvent<HTMLInputElement>) => {
              event.preventDefault();
              onFocusRow(rowKey);
              onToggle(rowKey, event.shiftKey);
            }}
            onChange={() => undefined}
          />
        </div>
      )}
      {columns.map((column) => (
        <div key={column.id} role="gridcell" className={cellClass(column)}>
          {column.cell(row)}
        </div>
      ))}
      {rowActions && (
        <div role="gridcell" className="dt-cell dt-actions">
          {rowActions(row)}
        </div>
      )}
    </div>
  );
}) as <T>(props: BodyRowProps<T>) => ReactNode;

const cellClass = (column: { align?: 'start' | 'end'; hideNarrow?: boolean }) =>
  `dt-cell${column.align === 'end' ? ' dt-end' : ''}${column.hideNarrow ? ' dt-hide-narrow' : ''}`;

interface HeaderCellProps<T> {
  column: DataTableColumn<T>;
  sort: SortState | null | undefined;
  onSortChange: ((sort: SortState | null) => void) | undefined;
}

// Memoised like the rows: the table renders on every scroll tick, its headers need not.
const HeaderCell = memo(function HeaderCell<T>({ column, sort, onSortChange }: HeaderCellProps<T>) {
  const direction = sort?.column === column.id ? sort.direction : null;
  const className = `${cellClass(column)} dt-header`;
  if (!column.sortable || !onSortChange) {
    return (
      <div role="columnheader" className={className}>
        {column.header}
      </div>
    );
  }
  const first = column.firstDirection ?? 'asc';
  // First click: the column's natural way; second: the other way; third: back to the list's own order.
  const next = (): SortState | null =>
    direction === null
      ? { column: column.id, direction: first }
      : direction === first
        ? { column: column.id, direction: first === 'asc' ? 'desc' : 'asc' }
        : null;
  return (
    <div
      role="columnheader"
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
      className={className}
    >
      <button type="button" className="dt-sort" onClick={() => onSortChange(next())}>
        {column.header}
        <Icon
          icon={direction === 'asc' ? ArrowUp : direction === 'desc' ? ArrowDown : ChevronsUpDown}
          size={14}
          className={direction ? '' : 'dt-sort-idle'}
        />
      </button>
    </div>
  );
}) as <T>(props: HeaderCellProps<T>) => ReactNode;

function toLines<T>(
  rows: T[],
  rowKey: (row: T) => string,
  groupKey: ((row: T) => string) | undefined,
  groupLabel: ((key: string) => string) | undefined,
): Line<T>[] {
  if (!groupKey) return rows.map((row) => ({ kind: 'row', row, key: rowKey(row) }));
  const lines: Line<T>[] = [];
  let heading: Extract<Line<T>, { kind: 'group' }> | null = null;
  for (const row of rows) {
    const key = groupKey(row);
    if (heading?.key !== `group:${key}`) {
      heading = { kind: 'group', key: `group:${key}`, label: groupLabel?.(key) ?? key, count: 0 };
      lines.push(heading);
    }
    heading.count += 1;
    lines.push({ kind: 'row', row, key: rowKey(row) });
  }
  return lines;
}

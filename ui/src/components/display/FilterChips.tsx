// The active filters as chips ("Status: Todo, Blocked ×"); a chip opens its values, its × removes it;
// "+ Filter" opens a searchable list of the fields, then of the chosen field's values. Values are the
// caller's (the address, usually): this only says what changed.
import { Command } from 'cmdk';
import { Check, ListFilter, X } from 'lucide-react';
import { useState } from 'react';
import type { ComboboxOption } from '../ui/Combobox';
import { Button, IconButton } from '../ui/Button';
import { Icon, type LucideIcon } from '../ui/Icon';
import { Popover } from '../ui/Popover';

export interface FilterField {
  id: string;
  label: string;
  icon?: LucideIcon;
  options: ComboboxOption[];
  /** Several values at once (any of them matches); otherwise picking one closes the list. */
  multiple?: boolean;
  /** Words for a chosen value no option names (the options still loading, or the thing gone). */
  unknownValue?: string;
}

export interface FilterChipsProps {
  fields: FilterField[];
  /** The chosen values per field id (a field without values has no chip). */
  value: Record<string, string[]>;
  onChange: (field: string, values: string[]) => void;
  /** Names the group of chips. */
  label?: string;
}

/** Matches a search against an option's words, as a substring (as Combobox does). */
const matchWords = (_value: string, search: string, keywords?: string[]): number => {
  const needle = search.trim().toLowerCase();
  return !needle || (keywords ?? []).some((word) => word.toLowerCase().includes(needle)) ? 1 : 0;
};

export function FilterChips({ fields, value, onChange, label = 'Filters' }: FilterChipsProps) {
  const [adding, setAdding] = useState(false);
  const [field, setField] = useState<FilterField | null>(null);
  const active = fields.filter((candidate) => (value[candidate.id]?.length ?? 0) > 0);
  const closeAdding = (open: boolean) => {
    setAdding(open);
    if (!open) setField(null);
  };
  return (
    <div className="filter-chips" role="group" aria-label={label}>
      {active.map((chip) => (
        <Chip key={chip.id} field={chip} values={value[chip.id] ?? []} onChange={(next) => onChange(chip.id, next)} />
      ))}
      <Popover
        open={adding}
        onOpenChange={closeAdding}
        label={field ? `Filter by ${field.label.toLowerCase()}` : 'Add a filter'}
        className="combobox-popover"
        trigger={
          <Button variant="ghost" size="sm" icon={ListFilter}>
            Filter
          </Button>
        }
      >
        {field ? (
          <ValueList
            field={field}
            values={value[field.id] ?? []}
            onChange={(next) => {
              onChange(field.id, next);
              if (!field.multiple) closeAdding(false);
            }}
          />
        ) : (
          <Command filter={matchWords} loop label="Filter fields">
            <Command.Input className="combobox-search" placeholder="Filter by…" aria-label="Filter by" />
            <Command.List className="combobox-list">
              <Command.Empty className="combobox-empty">No such field</Command.Empty>
              {fields.map((candidate) => (
                <Command.Item
                  key={candidate.id}
                  value={candidate.id}
                  keywords={[candidate.label]}
                  onSelect={() => setField(candidate)}
                  className="menu-item"
                >
                  {candidate.icon && <Icon icon={candidate.icon} />}
                  <span className="menu-item-label">{candidate.label}</span>
                </Command.Item>
              ))}
            </Command.List>
          </Command>
        )}
      </Popover>
    </div>
  );
}

function Chip({
  field,
  values,
  onChange,
}: {
  field: FilterField;
  values: string[];
  onChange: (next: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const words = values.map(
    (chosen) => field.options.find((option) => option.value === chosen)?.label ?? field.unknownValue ?? 'Unknown',
  );
  return (
    <span className="filter-chip">
      <Popover
        open={open}
        onOpenChange={setOpen}
        label={`Filter by ${field.label.toLowerCase()}`}
        className="combobox-popover"
        trigger={
          <button type="button" className="filter-chip-body">
            {field.icon && <Icon icon={field.icon} size={14} />}
            <span className="filter-chip-field">{field.label}:</span>
            <span className="filter-chip-values">{words.join(', ')}</span>
          </button>
        }
      >
        <ValueList
          field={field}
          values={values}
          onChange={(next) => {
            onChange(next);
            if (!field.multiple) setOpen(false);
          }}
        />
      </Popover>
      <IconButton
        icon={X}
        size="sm"
        aria-label={`Remove the ${field.label.toLowerCase()} filter`}
        onClick={() => onChange([])}
      />
    </span>
  );
}

function ValueList({
  field,
  values,
  onChange,
}: {
  field: FilterField;
  values: string[];
  onChange: (next: string[]) => void;
}) {
  const pick = (chosen: string) => {
    if (!field.multiple) onChange([chosen]);
    else onChange(values.includes(chosen) ? values.filter((other) => other !== chosen) : [...values, chosen]);
  };
  return (
    <Command filter={matchWords} loop label={`${field.label} values`}>
      <Command.Input
        className="combobox-search"
        placeholder={`${field.label}…`}
        aria-label={`Search ${field.label.toLowerCase()}`}
        autoFocus
      />
      <Command.List className="combobox-list" aria-multiselectable={field.multiple || undefined}>
        <Command.Empty className="combobox-empty">Nothing matches</Command.Empty>
        {field.options.map((option) => {
          const chosen = values.includes(option.value);
          return (
            <Command.Item
              key={option.value}
              value={option.value}
              keywords={[option.label, option.hint ?? '']}
              onSelect={() => pick(option.value)}
              className="menu-item"
              data-chosen={chosen || undefined}
            >
              {option.icon ? <Icon icon={option.icon} /> : option.leading}
              <span className="menu-item-label">{option.label}</span>
              {option.hint && <span className="menu-item-hint">{option.hint}</span>}
              {chosen && <Icon icon={Check} size={14} className="menu-check" label="selected" />}
            </Command.Item>
          );
        })}
      </Command.List>
    </Command>
  );
}

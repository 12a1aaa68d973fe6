// A searchable picker on Popover + cmdk, the board's replacement for a native <select>: the trigger is
// a combobox (named by `aria-label`, `aria-labelledby` or a <label htmlFor={id}>, its text the value),
// typing on it opens the list with that text as the search, arrows move, Enter picks, Escape closes
// and returns focus. With `name` it writes hidden inputs, so it works inside a <form>. `multiple`
// keeps the list open and toggles values. `Select` is the single-value form with the same props.
import { Command } from 'cmdk';
import { Check, ChevronsUpDown } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { type ButtonSize, buttonClass } from './Button';
import { Icon, type LucideIcon } from './Icon';
import { Popover } from './Popover';

export interface ComboboxOption<V extends string = string> {
  value: V;
  label: string;
  icon?: LucideIcon;
  /** Something other than an icon before the label (an avatar, a colour swatch). */
  leading?: ReactNode;
  /** Muted words after the label. */
  hint?: string;
  disabled?: boolean;
}

interface CommonProps<V extends string> {
  options: ComboboxOption<V>[];
  /** The trigger's id, for a <label htmlFor>. */
  id?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  /** Submitted with the form (one hidden input per chosen value). */
  name?: string;
  placeholder?: string;
  searchPlaceholder?: string;
  /** Shown when the search matches nothing. */
  emptyText?: string;
  disabled?: boolean;
  size?: ButtonSize;
  className?: string;
  /** An extra row at the end of the list (e.g. "New company…"); picking it calls its onSelect. */
  footer?: { label: string; icon?: LucideIcon; onSelect: () => void };
}

export interface SelectProps<V extends string> extends CommonProps<V> {
  multiple?: false;
  value: V | null | undefined;
  onChange: (value: V) => void;
}

export interface MultiComboboxProps<V extends string> extends CommonProps<V> {
  multiple: true;
  value: V[];
  onChange: (value: V[]) => void;
}

/** Matches a search against an option's label, as a substring: predictable, unlike fuzzy scoring. */
function matchLabel(_value: string, search: string, keywords?: string[]): number {
  const needle = search.trim().toLowerCase();
  return !needle || (keywords ?? []).some((keyword) => keyword.toLowerCase().includes(needle)) ? 1 : 0;
}

export function Combobox<V extends string>(props: SelectProps<V> | MultiComboboxProps<V>) {
  const { options, size = 'md', disabled, name, footer } = props;
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const listId = useId();
  const chosen: V[] = props.multiple ? props.value : props.value != null ? [props.value] : [];
  const chosenOptions = options.filter((option) => chosen.includes(option.value));

  const pick = (value: V) => {
    if (props.multiple) {
      props.onChange(chosen.includes(value) ? chosen.filter((v) => v !== value) : [...chosen, value]);
      return;
    }
    props.onChange(value);
    changeOpen(false);
  };

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) setSearch('');
  };

  const trigger = (
    <button
      type="button"
      id={props.id}
      role="combobox"
      aria-haspopup="listbox"
      aria-controls={open ? listId : undefined}
      aria-label={props['aria-label']}
      aria-labelledby={props['aria-labelledby']}
      aria-describedby={props['aria-describedby']}
      disabled={disabled}
      className={buttonClass({ variant: 'secondary', size }, `combobox-trigger ${props.className ?? ''}`)}
      onKeyDown={(event) => {
        // Type-ahead: a printable key on the closed trigger opens the list searching for it.
        if (event.key.length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey) {
          event.preventDefault();
          setSearch(event.key);
          setOpen(true);
        } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          setOpen(true);
        }
      }}
    >
      <span className="combobox-value">
        {chosenOptions.length > 1 ? (
          `${chosenOptions.length} selected`
        ) : chosenOptions[0] ? (
          <OptionLabel option={chosenOptions[0]} />
        ) : (
          <span className="muted">{props.placeholder ?? 'Choose…'}</span>
        )}
      </span>
      <Icon icon={ChevronsUpDown} size={14} className="combobox-chevron" />
    </button>
  );

  return (
    <>
      <Popover
        trigger={trigger}
        open={open}
        onOpenChange={changeOpen}
        className="combobox-popover"
        label={props['aria-label'] ?? 'Choose an option'}
      >
        <Command
          filter={matchLabel}
          loop
          defaultValue={props.multiple ? undefined : (props.value ?? undefined)}
          label={props['aria-label'] ?? 'Options'}
        >
          <Command.Input
            className="combobox-search"
            value={search}
            onValueChange={setSearch}
            placeholder={props.searchPlaceholder ?? 'Search…'}
            aria-label={props.searchPlaceholder ?? 'Search'}
          />
          <Command.List id={listId} className="combobox-list" aria-multiselectable={props.multiple || undefined}>
            <Command.Empty className="combobox-empty">{props.emptyText ?? 'Nothing matches'}</Command.Empty>
            {options.map((option) => {
              const selected = chosen.includes(option.value);
              return (
                <Command.Item
                  key={option.value}
                  value={option.value}
                  keywords={[option.label, option.hint ?? '']}
                  disabled={option.disabled}
                  onSelect={() => pick(option.value)}
                  className="menu-item"
                  data-chosen={selected || undefined}
                >
                  <OptionLabel option={option} />
                  {selected && <Icon icon={Check} size={14} className="menu-check" label="selected" />}
                </Command.Item>
              );
            })}
            {footer && (
              <Command.Item
                value="__footer"
                keywords={[footer.label]}
                onSelect={() => {
                  changeOpen(false);
                  footer.onSelect();
                }}
                className="menu-item combobox-footer"
              >
                {footer.icon && <Icon icon={footer.icon} />}
                <span className="menu-item-label">{footer.label}</span>
              </Command.Item>
            )}
          </Command.List>
        </Command>
      </Popover>
      {name && chosen.map((value) => <input key={value} type="hidden" name={name} value={value} />)}
    </>
  );
}

function OptionLabel({ option }: { option: ComboboxOption }) {
  return (
    <>
      {option.icon ? <Icon icon={option.icon} /> : option.leading}
      <span className="menu-item-label">{option.label}</span>
      {option.hint && <span className="menu-item-hint">{option.hint}</span>}
    </>
  );
}

/** The drop-in for a native <select>: one value, `onChange(value)`, options {value, label, icon?}. */
export function Select<V extends string>(props: Omit<SelectProps<V>, 'multiple'>) {
  return <Combobox {...props} multiple={false} />;
}

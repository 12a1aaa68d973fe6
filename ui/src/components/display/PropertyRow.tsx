// One property of a record in a side panel: its label, then its value as a button (with the value's
// icon: a StatusIcon, a PriorityIcon, an AgentAvatar) that opens a picker beside it. With `options`
// the picker is the board's Combobox (type to search, arrows, Enter picks, Escape closes); with
// `children` it is any panel (e.g. an issue search), the button showing `display`. The button's id
// lets a page open the picker from a key (`s` for status).
import { ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClass } from '../ui/Button';
import { Combobox, type ComboboxOption } from '../ui/Combobox';
import { Icon } from '../ui/Icon';
import { Popover } from '../ui/Popover';

interface CommonProps {
  label: string;
  /** The value button's id (unique on the page). */
  id: string;
  disabled?: boolean;
}

export interface PickerPropertyProps<V extends string> extends CommonProps {
  options: ComboboxOption<V>[];
  value: V | null;
  onChange: (value: V) => void;
  /** Shown when there is no value ("None"). */
  placeholder?: string;
  searchPlaceholder?: string;
}

export interface PanelPropertyProps extends CommonProps {
  /** The value as shown on the button. */
  display: ReactNode;
  /** The panel the button opens. */
  children: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export function PropertyRow<V extends string>(props: PickerPropertyProps<V> | PanelPropertyProps) {
  const labelId = `${props.id}-label`;
  return (
    <div className="property-row">
      <span className="property-label" id={labelId}>
        {props.label}
      </span>
      {'options' in props ? (
        <Combobox
          id={props.id}
          aria-labelledby={labelId}
          options={props.options}
          value={props.value}
          onChange={props.onChange}
          placeholder={props.placeholder ?? 'None'}
          searchPlaceholder={props.searchPlaceholder ?? `Find a ${props.label.toLowerCase()}…`}
          disabled={props.disabled}
          size="sm"
          className="property-value"
        />
      ) : (
        <Popover
          open={props.open}
          onOpenChange={props.onOpenChange}
          label={props.label}
          className="property-panel"
          trigger={
            <button
              type="button"
              id={props.id}
              aria-labelledby={`${labelId} ${props.id}`}
              disabled={props.disabled}
              className={buttonClass({ variant: 'secondary', size: 'sm' }, 'property-value')}
            >
              <span className="property-display">{props.display}</span>
              <Icon icon={ChevronDown} size={14} className="combobox-chevron" />
            </button>
          }
        >
          {props.children}
        </Popover>
      )}
    </div>
  );
}

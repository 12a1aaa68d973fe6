// Tabs within a page (Radix: arrow keys move between tabs, each panel labelled by its tab). For tabs
// that are pages of their own (a URL each), use links styled by `.tabs` instead.
import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { Icon, type LucideIcon } from './Icon';

export interface TabItem<V extends string = string> {
  value: V;
  label: string;
  icon?: LucideIcon;
  /** A number after the label (open items). */
  count?: number;
  disabled?: boolean;
}

export function Tabs<V extends string>({
  items,
  value,
  defaultValue,
  onValueChange,
  label,
  children,
}: {
  items: TabItem<V>[];
  value?: V;
  defaultValue?: V;
  onValueChange?: (value: V) => void;
  /** Names the tab list. */
  label: string;
  /** The panels: one <TabPanel value> per item. */
  children: ReactNode;
}) {
  return (
    <RadixTabs.Root
      value={value}
      defaultValue={defaultValue ?? items[0]?.value}
      onValueChange={onValueChange && ((next) => onValueChange(next as V))}
    >
      <RadixTabs.List className="tab-list" aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger key={item.value} value={item.value} className="tab" disabled={item.disabled}>
            {item.icon && <Icon icon={item.icon} size={14} />}
            {item.label}
            {item.count !== undefined && <span className="tab-count">{item.count}</span>}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {children}
    </RadixTabs.Root>
  );
}

export function TabPanel({ value, children }: { value: string; children: ReactNode }) {
  return (
    <RadixTabs.Content value={value} className="tab-panel">
      {children}
    </RadixTabs.Content>
  );
}

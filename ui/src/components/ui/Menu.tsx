// A dropdown menu (Radix: arrow keys, type-ahead, Escape closes and returns focus to the trigger).
// Items take an icon, a shortcut shown as keys, and a destructive tone; radio items choose one of a set.
import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import { Check } from 'lucide-react';
import type { ReactElement, ReactNode } from 'react';
import { Icon, type LucideIcon } from './Icon';
import { Kbd } from './Kbd';

export function Menu({
  trigger,
  children,
  align = 'start',
  side = 'bottom',
  label,
  open,
  onOpenChange,
}: {
  /** One button; it gets aria-haspopup and aria-expanded. */
  trigger: ReactElement;
  children: ReactNode;
  align?: 'start' | 'center' | 'end';
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** Names the menu for screen readers when the trigger's text does not. */
  label?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <RadixMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <RadixMenu.Trigger asChild>{trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content
          className="menu"
          align={align}
          side={side}
          sideOffset={4}
          collisionPadding={8}
          aria-label={label}
        >
          {children}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}

export function MenuItem({
  icon,
  leading,
  shortcut,
  destructive = false,
  disabled,
  onSelect,
  children,
}: {
  icon?: LucideIcon;
  /** Something other than an icon before the label (an avatar, a company's square). */
  leading?: ReactNode;
  shortcut?: string;
  destructive?: boolean;
  disabled?: boolean;
  onSelect?: () => void;
  children: ReactNode;
}) {
  return (
    <RadixMenu.Item
      className={destructive ? 'menu-item menu-item-destructive' : 'menu-item'}
      disabled={disabled}
      onSelect={onSelect}
    >
      {icon ? <Icon icon={icon} /> : leading}
      <span className="menu-item-label">{children}</span>
      {shortcut && <Kbd>{shortcut}</Kbd>}
    </RadixMenu.Item>
  );
}

export function MenuSeparator() {
  return <RadixMenu.Separator className="menu-separator" />;
}

/** A heading inside the menu (not an item). */
export function MenuLabel({ children }: { children: ReactNode }) {
  return <RadixMenu.Label className="menu-label">{children}</RadixMenu.Label>;
}

/** One of a set (menuitemradio with aria-checked): the theme, a sort order. */
export function MenuRadioGroup<V extends string>({
  value,
  onValueChange,
  options,
}: {
  value: V;
  onValueChange: (value: V) => void;
  options: { value: V; label: string; icon?: LucideIcon }[];
}) {
  return (
    <RadixMenu.RadioGroup value={value} onValueChange={(next) => onValueChange(next as V)}>
      {options.map((option) => (
        <RadixMenu.RadioItem key={option.value} value={option.value} className="menu-item">
          {option.icon && <Icon icon={option.icon} />}
          <span className="menu-item-label">{option.label}</span>
          <RadixMenu.ItemIndicator className="menu-check">
            <Icon icon={Check} size={14} />
          </RadixMenu.ItemIndicator>
        </RadixMenu.RadioItem>
      ))}
    </RadixMenu.RadioGroup>
  );
}

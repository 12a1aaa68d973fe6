// Every icon in the board goes through here: Lucide's outline set (each import is its own module,
// so the bundle holds only the icons used), one stroke and two sizes, hidden from screen readers
// unless it is the only thing naming a control.
import type { LucideIcon } from 'lucide-react';

export type { LucideIcon };

export function Icon({
  icon: Glyph,
  size = 16,
  label,
  className,
}: {
  icon: LucideIcon;
  size?: 14 | 16 | 20;
  /** Names the icon for assistive technology; without it the icon is decoration. */
  label?: string;
  className?: string;
}) {
  return (
    <Glyph
      size={size}
      strokeWidth={1.75}
      className={className ? `icon ${className}` : 'icon'}
      aria-hidden={label ? undefined : true}
      aria-label={label}
      role={label ? 'img' : undefined}
      focusable="false"
    />
  );
}

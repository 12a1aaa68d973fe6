// Nothing here yet: what this place holds, and the next step to fill it (in words, and as a button or
// link when the board can take it).
import type { ReactNode } from 'react';
import { Icon, type LucideIcon } from '../ui/Icon';

export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: string;
  /** The next step, in words. */
  children: ReactNode;
  /** A button or link that takes that step. */
  action?: ReactNode;
}) {
  return (
    <div className="empty-state">
      <span className="empty-state-icon">
        <Icon icon={icon} size={20} />
      </span>
      <h2>{title}</h2>
      <p className="muted">{children}</p>
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}

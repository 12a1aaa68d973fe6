// One event in a history: a gutter with the actor's avatar or an icon on a line joining the events,
// then "<actor> <sentence> · <when>" and, optionally, a body (a comment, a diff).
import type { ReactNode } from 'react';
import { Icon, type LucideIcon } from '../ui/Icon';
import { RelativeTime } from './RelativeTime';

export function TimelineItem({
  avatar,
  icon,
  actor,
  children,
  at,
  body,
  label,
}: {
  /** The actor's AgentAvatar; or else `icon`, for events the system made. */
  avatar?: ReactNode;
  icon?: LucideIcon;
  actor: ReactNode;
  /** What happened, as the rest of the sentence ("moved it to Done"). */
  children: ReactNode;
  at: string;
  body?: ReactNode;
  /** Names the item when its sentence alone would not (a run card: "Run by Dev: Running"). */
  label?: string;
}) {
  return (
    <li className="timeline-item" aria-label={label}>
      <span className="timeline-gutter">
        {avatar ??
          (icon && (
            <span className="timeline-icon">
              <Icon icon={icon} size={14} />
            </span>
          ))}
      </span>
      <div className="timeline-content">
        <p className="timeline-sentence">
          <strong>{actor}</strong> {children} <span className="muted">·</span>{' '}
          <RelativeTime at={at} className="muted" />
        </p>
        {body && <div className="timeline-body">{body}</div>}
      </div>
    </li>
  );
}

// An issue's priority as signal bars (more bars, more urgent; critical full and in the danger tone),
// named by its words for screen readers and on hover.
import { Signal, SignalHigh, SignalLow, SignalMedium, type LucideIcon } from 'lucide-react';
import { issuePriorities, type IssuePriority } from '../../lib/statuses';
import { Icon } from '../ui/Icon';

const BARS: Record<IssuePriority, LucideIcon> = {
  critical: Signal,
  high: SignalHigh,
  medium: SignalMedium,
  low: SignalLow,
};

export function PriorityIcon({ priority, size = 16 }: { priority: IssuePriority; size?: 14 | 16 }) {
  const label = `${issuePriorities.label(priority)} priority`;
  return (
    <span className={`priority-icon ${priority === 'critical' ? 'tone-danger' : 'tone-neutral'}`} title={label}>
      <Icon icon={BARS[priority] ?? SignalMedium} size={size} label={label} />
    </span>
  );
}

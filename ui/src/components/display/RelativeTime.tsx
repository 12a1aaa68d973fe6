// "3 minutes ago" that stays true while the page is open (the board's one clock, useNow.ts; it
// re-renders when its words change, not each tick), with the local date and time on hover and in the
// <time> element for machines.
import { fullTime, timeAgo } from '../../lib/format';
import { useClockText } from '../agents/useNow';

export function RelativeTime({ at, className }: { at: string; className?: string }) {
  const ago = useClockText((now) => timeAgo(at, now));
  return (
    <time dateTime={at} title={fullTime(at)} className={className}>
      {ago}
    </time>
  );
}

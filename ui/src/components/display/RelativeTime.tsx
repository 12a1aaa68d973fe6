// "3 minutes ago" that stays true while the page is open (the board's one clock, useNow), with the
// local date and time on hover and in the <time> element for machines.
import { fullTime, timeAgo } from '../../lib/format';
import { useNow } from '../agents/useNow';

export function RelativeTime({ at, className }: { at: string; className?: string }) {
  const now = useNow(true);
  return (
    <time dateTime={at} title={fullTime(at)} className={className}>
      {timeAgo(at, now)}
    </time>
  );
}

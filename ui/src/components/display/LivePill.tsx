// Something running right now: "Live", or "Running · 0:42" ticking from when it started, in the live
// tone with a pulsing dot (still under reduced motion, styles.css .live-motion).
import { duration } from '../../lib/format';
import { useNow } from '../agents/useNow';

export function LivePill({ label = 'Live', since }: { label?: string; since?: string | null }) {
  const now = useNow(Boolean(since));
  const elapsed = since ? duration(now - new Date(since).getTime()) : null;
  return (
    <span className="badge badge-live live-pill">
      <span className="live-dot live-motion" aria-hidden="true" />
      {label}
      {elapsed && (
        <>
          {' · '}
          <span className="live-pill-time">{elapsed}</span>
        </>
      )}
    </span>
  );
}

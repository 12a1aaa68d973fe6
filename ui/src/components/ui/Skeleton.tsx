// A placeholder in the shape of what is loading, hidden from screen readers (the page's loading
// status speaks for it). It shimmers unless reduced motion is asked for.
import type { CSSProperties } from 'react';

export function Skeleton({
  width,
  height,
  lines = 1,
  circle = false,
  className,
}: {
  /** A CSS length ('60%', 'var(--space-8)'); full width by default. */
  width?: string;
  height?: string;
  /** Text lines: the last one shorter. */
  lines?: number;
  circle?: boolean;
  className?: string;
}) {
  const style: CSSProperties = { width, height };
  const classes = ['skeleton', circle && 'skeleton-circle', className].filter(Boolean).join(' ');
  if (lines <= 1) return <span className={classes} style={style} aria-hidden="true" />;
  return (
    <span className="skeleton-lines" aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className={classes} style={index === lines - 1 ? { ...style, width: '60%' } : style} />
      ))}
    </span>
  );
}

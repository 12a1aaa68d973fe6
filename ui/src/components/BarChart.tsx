// A horizontal bar chart drawn as SVG by hand (no chart library: a few rects and labels). Sized in
// pixels for text and percentages for bars, so it fits any width without scaling the text down.
// The chart is an image with a title; the table next to it is its equivalent for screen readers.
import { useId } from 'react';

export interface Bar {
  key: string;
  label: string;
  value: number;
  /** The value as people read it ("$12.34"). */
  shown: string;
}

const ROW = 30;
const MAX_BARS = 12;

export function BarChart({ title, bars, tableId }: { title: string; bars: Bar[]; tableId?: string }) {
  const titleId = useId();
  const top = bars.slice(0, MAX_BARS);
  const max = Math.max(1, ...top.map((b) => b.value));
  const rest = bars.length - top.length;
  return (
    <figure className="bar-chart">
      <figcaption id={titleId}>
        {title}
        {rest > 0 && (
          <span className="muted">
            {' '}
            (top {MAX_BARS}; all {bars.length} in the table)
          </span>
        )}
      </figcaption>
      <svg
        role="img"
        aria-labelledby={titleId}
        aria-describedby={tableId}
        width="100%"
        height={top.length * ROW}
        data-testid="bar-chart"
      >
        <title>{title}</title>
        {top.map((bar, i) => (
          <g key={bar.key} transform={`translate(0, ${i * ROW})`}>
            <text x="0" y="12" className="bar-label">
              {bar.label}
            </text>
            <text x="100%" y="12" textAnchor="end" className="bar-value">
              {bar.shown}
            </text>
            <rect x="0" y="17" width="100%" height="7" rx="2" className="bar-track" />
            <rect x="0" y="17" width={`${(bar.value / max) * 100}%`} height="7" rx="2" className="bar-fill" />
          </g>
        ))}
      </svg>
    </figure>
  );
}

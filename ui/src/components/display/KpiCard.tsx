// A key figure with its recent trend: a label, the value as people read it, a line of detail and a
// small sparkline of one value per day. The sparkline is an image named in words (first, last and
// highest day), so a screen reader hears the trend the eye sees; the card leads to its page.
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type KpiTone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export interface KpiCardProps {
  /** What the figure is ("Runs today"). */
  label: string;
  /** The figure as people read it ("12", "92 %", "$4.10"). */
  value: ReactNode;
  /** One line under the figure ("84 in 14 days"). */
  detail?: ReactNode;
  /** One value per day, oldest first; null for a day without a value (e.g. no finished run for a rate). */
  series: (number | null)[];
  /** The sparkline in words, for assistive technology ("Runs per day over 14 days: …"). */
  seriesLabel: string;
  tone?: KpiTone;
  /** The page the card leads to. */
  to: string;
}

export function KpiCard({ label, value, detail, series, seriesLabel, tone = 'neutral', to }: KpiCardProps) {
  return (
    <Link to={to} className={`card kpi-card kpi-${tone}`}>
      <span className="kpi-label">{label}</span>
      <span className="kpi-value">{value}</span>
      <Sparkline series={series} label={seriesLabel} />
      {detail && <span className="muted kpi-detail">{detail}</span>}
    </Link>
  );
}

const WIDTH = 100;
const HEIGHT = 28;
/** Room for the stroke at the top and bottom edges. */
const PAD = 2;

/** A polyline scaled to its own range (0 at the bottom unless values go below), one point per day. */
export function Sparkline({ series, label }: { series: (number | null)[]; label: string }) {
  const known = series.filter((value): value is number => value !== null);
  const max = Math.max(1, ...known);
  const min = Math.min(0, ...known);
  const step = series.length > 1 ? WIDTH / (series.length - 1) : 0;
  const y = (value: number) => PAD + (HEIGHT - 2 * PAD) * (1 - (value - min) / (max - min));
  // Days without a value (null) are skipped: the line joins the known days on either side. A lone
  // known day is a short tick, so it still shows.
  const points = series.flatMap((value, i) => (value === null ? [] : [[i * step, y(value)] as const]));
  const drawn =
    points.length === 1 && points[0]
      ? [
          [points[0][0] - 2, points[0][1]],
          [points[0][0] + 2, points[0][1]],
        ]
      : points;
  return (
    <svg
      className="sparkline"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      data-testid="sparkline"
    >
      <polyline
        points={drawn.map(([x, py]) => `${x.toFixed(2)},${py.toFixed(2)}`).join(' ')}
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

// The last 14 days at a glance: runs, success rate and spend, each with its daily sparkline, from the
// snapshot's daily series (one query with the stat cards).
import { useQuery } from '@tanstack/react-query';
import { KpiCard, type KpiTone } from '../../components/display/KpiCard';
import { dashboardQuery } from '../../queries/dashboard';
import { cents } from '../../lib/format';

const percent = (part: number, whole: number) => Math.round((part / whole) * 100);

export function KpiCards({ companyId }: { companyId: string }) {
  const snapshot = useQuery(dashboardQuery(companyId));
  // The stat cards above say loading and failure for the same query.
  if (!snapshot.data) return null;
  const { daily } = snapshot.data;
  const days = daily.length;
  const today = daily[days - 1];
  const sum = (pick: (day: (typeof daily)[number]) => number) => daily.reduce((total, day) => total + pick(day), 0);
  const runs = sum((day) => day.runs);
  const succeeded = sum((day) => day.succeeded);
  const finished = succeeded + sum((day) => day.failed);
  const spend = sum((day) => day.spendCents);
  const rates = daily.map((day) =>
    day.succeeded + day.failed > 0 ? percent(day.succeeded, day.succeeded + day.failed) : null,
  );
  const rate = finished > 0 ? percent(succeeded, finished) : null;
  const rateTone: KpiTone = rate === null ? 'neutral' : rate >= 90 ? 'success' : rate >= 70 ? 'warning' : 'danger';
  const base = `/c/${companyId}`;
  const inWords = (values: (number | null)[], show: (value: number) => string) =>
    values.map((value) => (value === null ? 'none' : show(value))).join(', ');
  return (
    <section aria-label={`Last ${days} days`} className="kpi-cards">
      <KpiCard
        to={`${base}/agents`}
        label={`Runs, last ${days} days`}
        value={runs}
        detail={`${today?.runs ?? 0} today`}
        series={daily.map((day) => day.runs)}
        seriesLabel={`Runs per day, oldest first: ${inWords(
          daily.map((day) => day.runs),
          String,
        )}`}
      />
      <KpiCard
        to={`${base}/agents`}
        label="Success rate"
        value={rate === null ? '—' : `${rate} %`}
        detail={finished === 0 ? 'no finished run yet' : `${succeeded} of ${finished} finished runs succeeded`}
        tone={rateTone}
        series={rates}
        seriesLabel={`Success rate per day, oldest first: ${inWords(rates, (value) => `${value} %`)}`}
      />
      <KpiCard
        to={`${base}/costs`}
        label={`Spend, last ${days} days`}
        value={cents(spend)}
        detail={`${cents(today?.spendCents ?? 0)} today`}
        series={daily.map((day) => day.spendCents)}
        seriesLabel={`Spend per day, oldest first: ${inWords(
          daily.map((day) => day.spendCents),
          cents,
        )}`}
      />
    </section>
  );
}

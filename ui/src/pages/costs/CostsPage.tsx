// Costs: what the company spent, month to date and over the rolling 5-hour, 24-hour and 7-day
// windows, grouped by agent, provider, biller, model or project; tokens next to cents, and usage a
// subscription covers apart from metered spend. The window and grouping live in the URL; every read
// is under the live resource 'costs', so a reported cost shows up without polling.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { BillingTypes } from './BillingTypes';
import { Breakdown } from './Breakdown';
import { GROUPINGS, groupingOf, overviewQuery, WINDOWS, windowOf, type WindowId } from '../../queries/costs';
import { UsageFigures } from './UsageFigures';
import { cents } from '../../lib/format';

export function CostsPage() {
  const { companyId = '' } = useParams();
  const [search] = useSearchParams();
  const window = windowOf(search.get('window'));
  const grouping = groupingOf(search.get('by'));
  const overview = useQuery(overviewQuery(companyId));
  const linkTo = (name: 'window' | 'by', value: string) => {
    const next = new URLSearchParams(search);
    next.set(name, value);
    return `?${next}`;
  };
  const usageOf = (id: WindowId) => {
    if (!overview.data) return null;
    if (id === 'mtd') return { costCents: overview.data.month.spendCents, tokens: null };
    const row = overview.data.windows.find((w) => w.window === id);
    return row ? { costCents: row.costCents, tokens: row } : null;
  };

  return (
    <div className="page page-costs">
      <PageHeader title="Costs">
        <p className="muted">
          Spend reported as cost events: by the company's runs as they run, or recorded through the API.
        </p>
      </PageHeader>
      {overview.isError && (
        <ErrorNotice
          error={overview.error}
          title="The spend totals could not be loaded"
          retry={() => void overview.refetch()}
        />
      )}
      <nav aria-label="Window" className="cost-windows">
        {WINDOWS.map((w) => {
          const figures = usageOf(w.id);
          return (
            <Link
              key={w.id}
              to={linkTo('window', w.id)}
              replace
              aria-current={w.id === window ? 'page' : undefined}
              className="card stat cost-window"
            >
              <span className="muted">{w.label}</span>
              <span className="value">{figures ? cents(figures.costCents) : '…'}</span>
              {w.id === 'mtd' && overview.data ? (
                <span className="muted">
                  {overview.data.month.budgetCents > 0
                    ? `${overview.data.month.utilizationPercent}% of ${cents(overview.data.month.budgetCents)}`
                    : 'No company budget'}
                </span>
              ) : (
                figures?.tokens && <UsageFigures usage={figures.tokens} />
              )}
            </Link>
          );
        })}
      </nav>
      {overview.isPending && <Loading label="Loading spend" />}
      <nav aria-label="Group by" className="cost-groupings tabs">
        {GROUPINGS.map((g) => (
          <Link
            key={g.id}
            to={linkTo('by', g.id)}
            replace
            aria-current={g.id === grouping ? 'page' : undefined}
            className={g.id === grouping ? 'active' : undefined}
          >
            {g.label}
          </Link>
        ))}
      </nav>
      <Breakdown companyId={companyId} grouping={grouping} window={window} />
      <BillingTypes companyId={companyId} window={window} />
    </div>
  );
}

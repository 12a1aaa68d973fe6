// Burn rate and run-out day. A monthly budget (a policy on billed cents over the UTC calendar month)
// has spent `observed` of `amount` since the month began: at that rate it spends `observed / elapsed
// days` a day, and what is left lasts `remaining / rate` days. A lifetime budget has no window to
// measure a rate over, so it shows what is spent and left only.

const DAY_MS = 86_400_000;
/** Early in a month a day's spend is not yet a rate: the elapsed time counts as at least six hours. */
const MIN_ELAPSED_DAYS = 0.25;

const monthStart = (now) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
const monthEnd = (now) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
const dollars = (cents) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(cents / 100);
const dayName = (ms) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(ms);

/**
 * One budget's forecast: `{ perDayCents, runsOutAt (ms or null), verdict, tone }`, verdict one of
 * `spent` (nothing left), `runs-out` (before the month ends), `lasts` (the month), `idle` (no spend
 * yet), `lifetime` (no rate).
 */
export function forecastBudget(budget, now) {
  const remaining = budget.amount - budget.observed;
  if (budget.windowKind !== 'calendar_month_utc')
    return { perDayCents: null, runsOutAt: null, verdict: remaining <= 0 ? 'spent' : 'lifetime', remaining };
  const elapsedDays = Math.max((now.getTime() - monthStart(now)) / DAY_MS, MIN_ELAPSED_DAYS);
  const perDayCents = Math.round(budget.observed / elapsedDays);
  if (remaining <= 0) return { perDayCents, runsOutAt: now.getTime(), verdict: 'spent', remaining };
  if (perDayCents <= 0) return { perDayCents: 0, runsOutAt: null, verdict: 'idle', remaining };
  const runsOutAt = now.getTime() + (remaining / perDayCents) * DAY_MS;
  return { perDayCents, runsOutAt, verdict: runsOutAt < monthEnd(now) ? 'runs-out' : 'lasts', remaining };
}

const TONE = { spent: 'danger', 'runs-out': 'warning', lasts: 'success', idle: 'neutral', lifetime: 'neutral' };

function runsOutText(f) {
  if (f.verdict === 'spent') return 'spent';
  if (f.verdict === 'runs-out') return dayName(f.runsOutAt);
  if (f.verdict === 'lasts') return 'lasts the month';
  if (f.verdict === 'idle') return 'no spend yet';
  return 'no monthly rate';
}

/** The budgets in cents the summary lists (other metrics, tokens and runs, are not money). */
export function moneyBudgets(summary) {
  const policies = Array.isArray(summary?.policies) ? summary.policies : [];
  return policies.filter((p) => p.metric === 'billed_cents' && (p.isActive ?? true) && p.amount > 0);
}

/** The widget's blocks (as the SDK's builders make them) for a costs summary at `now`; `names` by scope id. */
export function radarBlocks(blocks, summary, now, names = {}) {
  const budgets = moneyBudgets(summary);
  if (budgets.length === 0)
    return blocks.payload(
      blocks.markdown('No monthly budget in cents is set. Set one under **Costs → Budgets** to see when it runs out.'),
    );
  const rows = budgets.map((b) => ({ budget: b, forecast: forecastBudget(b, now) }));
  const label = (b) =>
    b.scopeType === 'company' ? 'Company' : `${b.scopeType === 'agent' ? 'Agent' : 'Project'} ${names[b.scopeId] ?? b.scopeId.slice(0, 8)}`;
  // The headline: the company's budget when there is one, else the budget that runs out first.
  const byRunOut = [...rows].sort((a, b) => (a.forecast.runsOutAt ?? Infinity) - (b.forecast.runsOutAt ?? Infinity));
  const headline = rows.find((r) => r.budget.scopeType === 'company') ?? byRunOut[0];
  const h = headline.forecast;
  return blocks.payload(
    blocks.metric(`${label(headline.budget)}: spend per day`, h.perDayCents ?? 0, {
      unit: 'cents',
      caption: `this month's rate: ${dollars(headline.budget.observed)} of ${dollars(headline.budget.amount)} spent`,
      tone: TONE[h.verdict],
    }),
    blocks.metric(`${label(headline.budget)}: runs out`, runsOutText(h), { tone: TONE[h.verdict] }),
    blocks.table(
      [
        { key: 'budget', label: 'Budget' },
        { key: 'spent', label: 'Spent', unit: 'cents' },
        { key: 'amount', label: 'Budget', unit: 'cents' },
        { key: 'perDay', label: 'Per day', unit: 'cents' },
        { key: 'runsOut', label: 'Runs out' },
      ],
      byRunOut.map(({ budget, forecast }) => ({
        budget: label(budget),
        spent: budget.observed,
        amount: budget.amount,
        perDay: forecast.perDayCents,
        runsOut: runsOutText(forecast),
      })),
      { title: 'Every budget, soonest to run out first' },
    ),
  );
}

// The costs page's reads ('costs'), refreshed by cost events and budget policies
// (live/invalidation.ts). Keys name the window, never an instant: a rolling window's `from` is
// computed when the query runs, so a live refetch reads the window as of now.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';

// Windows and groupings by id, in the page's order (none of the ids is a number, so keys keep it).
const WINDOW_BY_ID = {
  mtd: { label: 'Month to date', hours: null },
  '5h': { label: 'Last 5 hours', hours: 5 },
  '24h': { label: 'Last 24 hours', hours: 24 },
  '7d': { label: 'Last 7 days', hours: 168 },
} as const;
export type WindowId = keyof typeof WINDOW_BY_ID;

const GROUPING_BY_ID = {
  agent: { label: 'Agent' },
  provider: { label: 'Provider' },
  biller: { label: 'Biller' },
  model: { label: 'Model' },
  project: { label: 'Project' },
} as const;
export type GroupingId = keyof typeof GROUPING_BY_ID;

export const WINDOWS = (Object.keys(WINDOW_BY_ID) as WindowId[]).map((id) => ({ id, ...WINDOW_BY_ID[id] }));
export const GROUPINGS = (Object.keys(GROUPING_BY_ID) as GroupingId[]).map((id) => ({ id, ...GROUPING_BY_ID[id] }));
export const windowLabel = (id: WindowId): string => WINDOW_BY_ID[id].label;
export const groupingLabel = (id: GroupingId): string => GROUPING_BY_ID[id].label;

export const windowOf = (value: string | null): WindowId => WINDOWS.find((w) => w.id === value)?.id ?? 'mtd';
export const groupingOf = (value: string | null): GroupingId => GROUPINGS.find((g) => g.id === value)?.id ?? 'agent';

/** The start of a window as of `now`: the UTC month's first instant, or now minus its hours. */
export function windowStart(id: WindowId, now = new Date()): string {
  const { hours } = WINDOW_BY_ID[id];
  if (hours === null) return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  return new Date(now.getTime() - hours * 3_600_000).toISOString();
}

export interface Usage {
  costCents: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  eventCount: number;
}

/** One row of a breakdown, whatever it groups by. */
export interface CostRow extends Usage {
  key: string;
  label: string;
  agentId?: string | null;
}

const costs = companyResource('costs');
export const costKeys = {
  ...costs,
  overview: (companyId: string) => costs.key(companyId, 'overview'),
  byBillingType: (companyId: string, window: WindowId) => costs.key(companyId, 'by-billing-type', window),
  breakdown: (companyId: string, grouping: GroupingId, window: WindowId) =>
    costs.key(companyId, 'by', grouping, window),
};

const path = (companyId: string) => ({ path: { companyId } });

/** The month's spend against the company budget (the summary) and the three rolling windows. */
export const overviewQuery = (companyId: string) =>
  queryOptions({
    queryKey: costKeys.overview(companyId),
    queryFn: async () => {
      const [month, windows] = await Promise.all([
        api
          .GET('/api/companies/{companyId}/costs/summary', {
            params: { ...path(companyId), query: { from: windowStart('mtd') } },
          })
          .then(data),
        api.GET('/api/companies/{companyId}/costs/window-spend', { params: path(companyId) }).then(data),
      ]);
      return { month, windows };
    },
  });

export const billingTypeQuery = (companyId: string, window: WindowId) =>
  queryOptions({
    queryKey: costKeys.byBillingType(companyId, window),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/costs/by-billing-type', {
          params: { ...path(companyId), query: { from: windowStart(window) } },
        }),
      ),
    // While another window loads, the previous figures stay on screen.
    placeholderData: keepPreviousData,
  });

const usage = (row: Usage): Usage => ({
  costCents: row.costCents,
  inputTokens: row.inputTokens,
  cachedInputTokens: row.cachedInputTokens,
  outputTokens: row.outputTokens,
  eventCount: row.eventCount,
});

async function breakdown(companyId: string, grouping: GroupingId, from: string): Promise<CostRow[]> {
  const params = { ...path(companyId), query: { from } };
  switch (grouping) {
    case 'agent':
      return data(await api.GET('/api/companies/{companyId}/costs/by-agent', { params })).map((r) => ({
        ...usage(r),
        key: r.agentId ?? 'deleted',
        label: r.agentName ?? 'Deleted agents',
        agentId: r.agentId,
      }));
    case 'provider':
      return data(await api.GET('/api/companies/{companyId}/costs/by-provider', { params })).map((r) => ({
        ...usage(r),
        key: r.provider,
        label: r.provider,
      }));
    case 'biller':
      return data(await api.GET('/api/companies/{companyId}/costs/by-biller', { params })).map((r) => ({
        ...usage(r),
        key: r.biller,
        label: r.biller,
      }));
    case 'project':
      return data(await api.GET('/api/companies/{companyId}/costs/by-project', { params })).map((r) => ({
        ...usage(r),
        key: r.projectId ?? 'none',
        label: r.projectName ?? 'No project',
      }));
    case 'model':
      return byModel(data(await api.GET('/api/companies/{companyId}/costs/by-agent-model', { params })));
  }
}

/** by-agent-model rows summed per provider and model (the API keeps the agent in the key). */
function byModel(rows: (Usage & { provider: string; model: string })[]): CostRow[] {
  const models = new Map<string, CostRow>();
  for (const r of rows) {
    const key = `${r.provider}/${r.model}`;
    const row = models.get(key) ?? {
      key,
      label: `${r.model} (${r.provider})`,
      costCents: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      eventCount: 0,
    };
    row.costCents += r.costCents;
    row.inputTokens += r.inputTokens;
    row.cachedInputTokens += r.cachedInputTokens;
    row.outputTokens += r.outputTokens;
    row.eventCount += r.eventCount;
    models.set(key, row);
  }
  return [...models.values()].sort((a, b) => b.costCents - a.costCents || a.label.localeCompare(b.label));
}

export const breakdownQuery = (companyId: string, grouping: GroupingId, window: WindowId) =>
  queryOptions({
    queryKey: costKeys.breakdown(companyId, grouping, window),
    // The rows say what they are of: while another window or grouping loads, the previous rows stay
    // on screen under their own title, never under the new one.
    queryFn: async () => ({ grouping, window, rows: await breakdown(companyId, grouping, windowStart(window)) }),
    placeholderData: keepPreviousData,
  });

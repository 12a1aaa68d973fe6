// What a usage report costs when the adapter did not say: a per-model price table from
// configuration (BOARDROOM_MODEL_PRICES, JSON), in cents per million tokens. Keys are
// `<provider>/<model>` or just `<model>`; the first match wins. Usage included in a subscription
// costs 0 cents whatever the table says: its tokens are still recorded.
import { z } from 'zod';

const price = z.object({
  inputCentsPerMTok: z.number().min(0).max(1_000_000),
  cachedInputCentsPerMTok: z.number().min(0).max(1_000_000).optional(),
  outputCentsPerMTok: z.number().min(0).max(1_000_000),
});
export const priceTable = z.record(z.string().min(1).max(200), price);
export type PriceTable = z.output<typeof priceTable>;

export function parsePriceTable(raw: string | undefined): PriceTable {
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('BOARDROOM_MODEL_PRICES must be JSON');
  }
  const parsed = priceTable.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `BOARDROOM_MODEL_PRICES: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

export interface PricedUsage {
  provider: string;
  model: string;
  billingType: string;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  costCents?: number;
}

/** The reported cost, else the table's (rounded up to a whole cent), else 0; always 0 when subscription-included. */
export function costCentsOf(usage: PricedUsage, table: PriceTable): number {
  if (usage.billingType === 'subscription_included') return 0;
  if (usage.costCents !== undefined) return usage.costCents;
  const entry = table[`${usage.provider}/${usage.model}`] ?? table[usage.model];
  if (!entry) return 0;
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  const microCents =
    uncached * entry.inputCentsPerMTok +
    usage.cachedInputTokens * (entry.cachedInputCentsPerMTok ?? entry.inputCentsPerMTok) +
    usage.outputTokens * entry.outputCentsPerMTok;
  return Math.ceil(microCents / 1_000_000);
}

// The one shape of a usage report, however it arrives (a process's structured stdout line, an
// http receiver's complete call, a CLI stream parser): bounded, so every report can become a cost
// event as it is. An unfamiliar billingType is kept as `unknown` rather than dropping the report.
import { z } from 'zod';
import { BILLING_TYPES, MAX_EVENT_COST_CENTS, MAX_TOKENS } from '../core/cost-bounds.ts';

const count = (max: number) => z.number().int().nonnegative().max(max);
const isBillingType = (value: string): value is (typeof BILLING_TYPES)[number] =>
  (BILLING_TYPES as readonly string[]).includes(value);

export const usageReport = z.object({
  provider: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  inputTokens: count(MAX_TOKENS).optional(),
  cachedInputTokens: count(MAX_TOKENS).optional(),
  outputTokens: count(MAX_TOKENS).optional(),
  costCents: count(MAX_EVENT_COST_CENTS).optional(),
  billingType: z
    .string()
    .max(100)
    .transform((value) => (isBillingType(value) ? value : 'unknown'))
    .optional()
    .describe(`one of ${BILLING_TYPES.join(', ')}; anything else counts as unknown`),
});

export type AdapterUsage = z.output<typeof usageReport>;

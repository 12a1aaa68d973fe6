import { z } from 'zod';
import { idempotencyKeyField } from '../../core/fields.ts';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';
import { rangeQueryWith } from '../costs/summary-schemas.ts';

export const FINANCE_DIRECTIONS = ['debit', 'credit'] as const;
/** One finance event: up to 1 billion in the currency's minor unit x 100 (10^11 cents). */
export const MAX_FINANCE_AMOUNT_CENTS = 100_000_000_000;
export const FINANCE_KIND_EXAMPLES = [
  'inference_charge',
  'platform_fee',
  'credit_purchase',
  'credit_refund',
  'manual_adjustment',
] as const;

// ISO 4217 codes as this runtime's ICU knows them (about 160 active currencies).
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const createFinanceEventBody = z
  .object({
    kind: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe(
        `what the money was for, free text (1 to 100 characters), e.g. ${FINANCE_KIND_EXAMPLES.map((k) => `\`${k}\``).join(', ')}`,
      ),
    direction: z
      .enum(FINANCE_DIRECTIONS)
      .describe(
        '`debit`: money out of the company (a charge, a fee, a purchase); `credit`: money in (a refund, a credit granted)',
      ),
    amountCents: z
      .number()
      .int()
      .min(0)
      .max(MAX_FINANCE_AMOUNT_CENTS)
      .describe(`integer amount in cents (hundredths of the currency unit), 0 to ${MAX_FINANCE_AMOUNT_CENTS}`),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'three uppercase letters')
      .refine((c) => CURRENCIES.has(c), 'not an ISO 4217 currency code')
      .describe('ISO 4217 code, three uppercase letters, e.g. `USD`, `EUR`'),
    occurredAt: z.iso.datetime({ offset: true }).describe('when it happened: ISO 8601 date-time with Z or an offset'),
    estimated: z
      .boolean()
      .optional()
      .describe('true when the amount is an estimate, not an invoiced figure (default false)'),
    biller: z.string().trim().min(1).max(200).nullish().describe('who bills for it, e.g. `anthropic`, `openrouter`'),
    description: z.string().trim().max(2_000).nullish().describe('a note for people, up to 2,000 characters'),
    metadata: freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES })
      .nullish()
      .describe('free-form JSON object (invoice number, ...): at most 32 levels deep and 64 KiB serialised'),
    idempotencyKey: idempotencyKeyField(
      'your name for this record (e.g. the invoice number): a repeat with the same key in this company returns the first event (200) and records nothing again',
    ),
  })
  .meta({
    examples: [
      {
        kind: 'credit_purchase',
        direction: 'debit',
        amountCents: 50_000,
        currency: 'USD',
        occurredAt: '2026-11-02T09:00:00Z',
        biller: 'openrouter',
        metadata: { invoice: 'INV-1042' },
      },
    ],
  });
export type CreateFinanceEvent = z.output<typeof createFinanceEventBody>;

export const MAX_FINANCE_EVENTS_PAGE = 500;
export const listFinanceEventsQuery = rangeQueryWith({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_FINANCE_EVENTS_PAGE)
    .default(100)
    .describe(`page size, 1 to ${MAX_FINANCE_EVENTS_PAGE} (default 100)`),
});
export type ListFinanceEventsQuery = z.output<typeof listFinanceEventsQuery>;

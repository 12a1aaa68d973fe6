import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { MAX_BREAKDOWN_ROWS } from '../costs/summaries.ts';
import { FINANCE_DIRECTIONS } from './schemas.ts';
import type { FinanceEvent } from './service.ts';

export const financeEventResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    kind: z.string(),
    direction: z.enum(FINANCE_DIRECTIONS),
    amountCents: z.number().int(),
    currency: z.string(),
    estimated: z.boolean(),
    biller: z.string().nullable(),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    occurredAt: timestampOut(),
    createdAt: timestampOut(),
  })
  .describe('A finance event');

export function presentFinanceEvent(e: FinanceEvent): z.output<typeof financeEventResponse> {
  return {
    id: e.id,
    companyId: e.companyId,
    kind: e.kind,
    direction: e.direction as (typeof FINANCE_DIRECTIONS)[number],
    amountCents: e.amountCents,
    currency: e.currency,
    estimated: e.estimated,
    biller: e.biller,
    description: e.description,
    metadata: e.metadata,
    occurredAt: e.occurredAt,
    createdAt: e.createdAt,
  };
}

const totalsFields = {
  currency: z.string().describe('ISO 4217 code: amounts are never added across currencies'),
  debitCents: z.number().int().describe('sum of amountCents of debit events'),
  creditCents: z.number().int().describe('sum of amountCents of credit events'),
  netCents: z
    .number()
    .int()
    .describe('debitCents minus creditCents: what the company paid out, net (negative when more came in)'),
  eventCount: z.number().int(),
};

export const financeSummaryResponse = z
  .object({
    from: timestampOut().nullable().describe('the range start as applied (null: open)'),
    to: timestampOut().nullable().describe('the range end as applied, exclusive (null: open)'),
    currencies: z.array(z.object(totalsFields)).describe('one entry per currency with events in the range, by code'),
  })
  .describe('Debits, credits and net per currency');

export const financeByBillerResponse = z
  .array(
    z.object({ biller: z.string().nullable().describe('null for events recorded without a biller'), ...totalsFields }),
  )
  .describe(`Totals per biller and currency, largest debits plus credits first; at most ${MAX_BREAKDOWN_ROWS} rows`);

export const financeByKindResponse = z
  .array(z.object({ kind: z.string(), ...totalsFields }))
  .describe(`Totals per kind and currency, largest debits plus credits first; at most ${MAX_BREAKDOWN_ROWS} rows`);

import { z } from 'zod';
import { idempotencyKeyField } from '../../core/fields.ts';
import { BILLING_TYPES, MAX_EVENT_COST_CENTS, MAX_TOKENS } from '../../core/cost-bounds.ts';

const name = (what: string) => z.string().trim().min(1).max(200).describe(what);
const tokens = z.number().int().min(0).max(MAX_TOKENS).optional();

export const createCostEventBody = z
  .object({
    agentId: z
      .uuid()
      .describe('the agent whose work this was: an agent of the company (422); agent callers only themselves (403)'),
    provider: name('who served the model, e.g. `anthropic`'),
    model: name('the model, e.g. `claude-sonnet-4`'),
    costCents: z
      .number()
      .int()
      .min(0)
      .max(MAX_EVENT_COST_CENTS)
      .describe(`integer cents, 0 to ${MAX_EVENT_COST_CENTS}`),
    occurredAt: z.iso.datetime({ offset: true }).describe('ISO 8601 date-time with Z or an offset'),
    issueId: z.uuid().nullish().describe('issue of the same company (422 otherwise)'),
    projectId: z.uuid().nullish().describe('project of the same company (422 otherwise)'),
    goalId: z.uuid().nullish().describe('goal of the same company (422 otherwise)'),
    heartbeatRunId: z.uuid().nullish().describe('a run of the same agent (422 otherwise)'),
    billingCode: z.string().trim().max(200).nullish(),
    biller: name('who bills for it (defaults to the provider)').optional(),
    billingType: z.enum(BILLING_TYPES).optional().describe('default `unknown`'),
    inputTokens: tokens,
    cachedInputTokens: tokens,
    outputTokens: tokens,
    idempotencyKey: idempotencyKeyField(
      "your name for this report (e.g. the provider's request id): a repeat with the same key in this company returns the first event (200) and counts nothing again",
    ),
  })
  .meta({
    examples: [
      {
        agentId: '7d9f7c8e-5d43-4b7a-9f1e-2c1d2b3a4f5e',
        provider: 'anthropic',
        model: 'claude-sonnet-4',
        costCents: 42,
        occurredAt: '2026-11-23T10:00:00Z',
        inputTokens: 120000,
        outputTokens: 3000,
        billingType: 'metered_api',
      },
    ],
  });
export type CreateCostEvent = z.output<typeof createCostEventBody>;

export const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });

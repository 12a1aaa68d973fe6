import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { BILLING_TYPES } from '../../core/cost-bounds.ts';
import type { CostEvent } from './service.ts';

export const costEventResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    agentId: uuidOut().nullable().describe('null once the agent was deleted'),
    issueId: uuidOut().nullable(),
    projectId: uuidOut().nullable().describe("as given, else the issue's project"),
    goalId: uuidOut().nullable().describe("as given, else the issue's goal"),
    heartbeatRunId: uuidOut().nullable(),
    billingCode: z.string().nullable().describe("as given, else the issue's billing code"),
    provider: z.string(),
    model: z.string(),
    biller: z.string(),
    billingType: z.enum(BILLING_TYPES),
    inputTokens: z.number().int(),
    cachedInputTokens: z.number().int(),
    outputTokens: z.number().int(),
    costCents: z.number().int(),
    occurredAt: timestampOut(),
    createdAt: timestampOut(),
  })
  .describe('A cost event');

export function presentCostEvent(e: CostEvent): z.output<typeof costEventResponse> {
  return {
    id: e.id,
    companyId: e.companyId,
    agentId: e.agentId,
    issueId: e.issueId,
    projectId: e.projectId,
    goalId: e.goalId,
    heartbeatRunId: e.heartbeatRunId,
    billingCode: e.billingCode,
    provider: e.provider,
    model: e.model,
    biller: e.biller,
    billingType: e.billingType as (typeof BILLING_TYPES)[number],
    inputTokens: e.inputTokens,
    cachedInputTokens: e.cachedInputTokens,
    outputTokens: e.outputTokens,
    costCents: e.costCents,
    occurredAt: e.occurredAt,
    createdAt: e.createdAt,
  };
}

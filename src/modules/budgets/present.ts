import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { BudgetIncident } from './evaluate.ts';
import type { BudgetPolicy } from './budget-policies.ts';
import { BUDGET_METRICS, BUDGET_SCOPES, WINDOW_KINDS } from './schemas.ts';

export const policyResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    scopeType: z.enum(BUDGET_SCOPES),
    scopeId: uuidOut(),
    metric: z.enum(BUDGET_METRICS),
    windowKind: z.enum(WINDOW_KINDS),
    amount: z.number().int().describe("in the metric's unit: cents, tokens or runs"),
    warnPercent: z.number().int(),
    hardStopEnabled: z.boolean(),
    notifyEnabled: z.boolean(),
    isActive: z.boolean(),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('A budget policy');
export type PolicyResponse = z.output<typeof policyResponse>;

export function presentPolicy(p: BudgetPolicy): PolicyResponse {
  return {
    id: p.id,
    companyId: p.companyId,
    scopeType: p.scopeType as PolicyResponse['scopeType'],
    scopeId: p.scopeId,
    metric: p.metric as PolicyResponse['metric'],
    windowKind: p.windowKind as PolicyResponse['windowKind'],
    amount: p.amount,
    warnPercent: p.warnPercent,
    hardStopEnabled: p.hardStopEnabled,
    notifyEnabled: p.notifyEnabled,
    isActive: p.isActive,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export const incidentResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    policyId: uuidOut(),
    scopeType: z.enum(BUDGET_SCOPES),
    scopeId: uuidOut(),
    metric: z.enum(BUDGET_METRICS),
    windowKey: z.string().describe('the window it belongs to: a UTC month `YYYY-MM` or `lifetime`'),
    kind: z.enum(['soft', 'hard']).describe('soft: the warn threshold was reached; hard: 100 percent'),
    status: z.enum(['open', 'resolved']),
    thresholdPercent: z.number().int(),
    amount: z.number().int().describe('the budget when it was raised'),
    observed: z.number().int().describe('the spend when it was raised'),
    stopPending: z.boolean().describe('a hard stop being applied right now'),
    pausedAgentIds: z.array(uuidOut()).describe('agents the hard stop paused'),
    pausedProjectId: uuidOut().nullable().describe('the project the hard stop paused'),
    approvalId: uuidOut().nullable().describe('the budget_override_required approval asking the board'),
    resolution: z.enum(['keep_paused', 'raise_budget_and_resume', 'override_approved']).nullable(),
    resolvedByUserId: z.string().nullable(),
    resolvedAt: timestampOut().nullable(),
    createdAt: timestampOut(),
  })
  .describe('A budget incident');
export type IncidentResponse = z.output<typeof incidentResponse>;

export function presentIncident(i: BudgetIncident): IncidentResponse {
  return {
    id: i.id,
    companyId: i.companyId,
    policyId: i.policyId,
    scopeType: i.scopeType as IncidentResponse['scopeType'],
    scopeId: i.scopeId,
    metric: i.metric as IncidentResponse['metric'],
    windowKey: i.windowKey,
    kind: i.kind as IncidentResponse['kind'],
    status: i.status as IncidentResponse['status'],
    thresholdPercent: i.thresholdPercent,
    amount: i.amount,
    observed: i.observed,
    stopPending: i.stopPending,
    pausedAgentIds: i.pausedAgentIds,
    pausedProjectId: i.pausedProjectId,
    approvalId: i.approvalId,
    resolution: i.resolution as IncidentResponse['resolution'],
    resolvedByUserId: i.resolvedByUserId,
    resolvedAt: i.resolvedAt,
    createdAt: i.createdAt,
  };
}

export const overviewResponse = z
  .object({
    policies: z.array(
      policyResponse.extend({
        observed: z.number().int().describe('spend in the current window'),
        utilizationPercent: z.number().describe('observed / amount, two decimals'),
      }),
    ),
    activeIncidents: z.array(incidentResponse).describe('open incidents, oldest first (at most 500)'),
    pausedAgentCount: z.number().int().describe('agents paused now, for any reason'),
    budgetPausedAgentCount: z.number().int().describe('of those, paused by a budget hard stop'),
    pausedProjectCount: z.number().int(),
    pendingApprovalCount: z.number().int().describe('approvals waiting for the board (pending or revision requested)'),
  })
  .describe('Where the company stands on budgets');

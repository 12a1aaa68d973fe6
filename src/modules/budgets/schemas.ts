import { z } from 'zod';
import { budgetCents } from '../../core/fields.ts';
import type { ErrorStatus } from '../../http/openapi.ts';

export const BUDGET_SCOPES = ['company', 'agent', 'project'] as const;
export const BUDGET_METRICS = ['billed_cents', 'tokens', 'runs'] as const;
export const WINDOW_KINDS = ['calendar_month_utc', 'lifetime'] as const;
export const INCIDENT_RESOLUTIONS = ['keep_paused', 'raise_budget_and_resume'] as const;
/** A budget amount: cents, tokens or runs. */
const MAX_AMOUNT = 1_000_000_000_000;

/** Errors of a board-only route on a company's budgets. */
export const BOARD_COMPANY_ERRORS: [forbidden: [ErrorStatus, string], notFound: [ErrorStatus, string]] = [
  [403, "board access required, or the company is not one of the caller's"],
  [404, 'no such company'],
];
/** What a route that writes a budget says about the hard stop it may cause. */
export const HARD_STOP_NOTE =
  'A budget reached (100 percent) with hardStopEnabled stops its scope as soon as this commits (the engine applies the stop, typically within tens of milliseconds of the answer): the agent, the project, or every working agent of the company is paused with reason `budget`, its waiting wakes and running runs are cancelled (process groups killed within seconds), new wakes and checkouts get 409, and a budget_override_required approval asks the board.';

export const budgetBody = z
  .object({
    budgetMonthlyCents: budgetCents.describe(
      'monthly budget in cents, 0 to 2,000,000,000; 0 switches the agent budget policy off',
    ),
  })
  .meta({ examples: [{ budgetMonthlyCents: 75_000 }] });

export const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
export const incidentParams = companyParams.extend({ incidentId: z.uuid().describe('budget incident UUID') });

export const createPolicyBody = z
  .object({
    scopeType: z.enum(BUDGET_SCOPES).describe('what the budget covers'),
    scopeId: z
      .uuid()
      .optional()
      .describe('the agent or project (of this company, 422 otherwise); for `company` the company itself (default)'),
    metric: z
      .enum(BUDGET_METRICS)
      .optional()
      .describe('`billed_cents` (default), `tokens` (input + output) or `runs` (finished runs)'),
    windowKind: z
      .enum(WINDOW_KINDS)
      .optional()
      .describe('`calendar_month_utc` (default for company and agent) or `lifetime` (default for project)'),
    amount: z.number().int().min(1).max(MAX_AMOUNT).describe("the budget, in the metric's unit (cents, tokens, runs)"),
    warnPercent: z
      .number()
      .int()
      .min(1)
      .max(99)
      .optional()
      .describe('soft incident at this share of the amount (default 80)'),
    hardStopEnabled: z
      .boolean()
      .optional()
      .describe('at 100 percent pause the scope and cancel its running work (default true)'),
    notifyEnabled: z.boolean().optional().describe('raise soft incidents at the warn threshold (default true)'),
    isActive: z.boolean().optional().describe('default true; one active policy per scope, metric and window (409)'),
  })
  .superRefine((body, ctx) => {
    if (body.scopeType !== 'company' && !body.scopeId)
      ctx.addIssue({
        code: 'custom',
        path: ['scopeId'],
        message: `scopeId is required for a ${body.scopeType} budget`,
      });
  })
  .meta({
    examples: [
      { scopeType: 'project', scopeId: '0b1e4f7a-6a53-4f0e-9d55-3f1a2b4c5d6e', amount: 250000 },
      { scopeType: 'agent', scopeId: '7d9f7c8e-5d43-4b7a-9f1e-2c1d2b3a4f5e', metric: 'tokens', amount: 50000000 },
    ],
  });
export type CreatePolicy = z.output<typeof createPolicyBody>;

export const policyParams = companyParams.extend({ policyId: z.uuid().describe('budget policy UUID') });

export const updatePolicyBody = z
  .object({
    amount: z
      .number()
      .int()
      .min(1)
      .max(MAX_AMOUNT)
      .optional()
      .describe("the budget, in the metric's unit (cents, tokens, runs)"),
    warnPercent: z.number().int().min(1).max(99).optional().describe('soft incident at this share of the amount'),
    hardStopEnabled: z.boolean().optional().describe('at 100 percent pause the scope and cancel its running work'),
    notifyEnabled: z.boolean().optional().describe('raise soft incidents at the warn threshold'),
    isActive: z
      .boolean()
      .optional()
      .describe(
        'false switches the policy off; true switches it back on (409 when another active policy has its scope, metric and window)',
      ),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ examples: [{ amount: 120000, warnPercent: 90 }, { hardStopEnabled: false }] });
export type UpdatePolicy = z.output<typeof updatePolicyBody>;

export const resolveIncidentBody = z
  .object({
    action: z
      .enum(INCIDENT_RESOLUTIONS)
      .describe(
        '`keep_paused`: close the incident, the scope stays paused; `raise_budget_and_resume`: set the policy to `amount` and resume what the stop paused',
      ),
    amount: z
      .number()
      .int()
      .min(1)
      .max(MAX_AMOUNT)
      .optional()
      .describe(
        "raise_budget_and_resume: the new budget, in the metric's unit; must exceed the spend observed now (422)",
      ),
    note: z.string().trim().max(2000).optional().describe('kept on the linked approval as its decision note'),
  })
  .superRefine((body, ctx) => {
    if (body.action === 'raise_budget_and_resume' && body.amount === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'raise_budget_and_resume needs amount' });
  })
  .meta({ examples: [{ action: 'raise_budget_and_resume', amount: 150000 }, { action: 'keep_paused' }] });
export type ResolveIncident = z.output<typeof resolveIncidentBody>;

import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { requireIncident, resolveIncident } from './incidents.ts';
import { budgetOverview } from './overview.ts';
import { createPolicy, requirePolicy, updatePolicy } from './budget-policies.ts';
import { incidentResponse, overviewResponse, policyResponse, presentIncident, presentPolicy } from './present.ts';
import {
  BOARD_COMPANY_ERRORS,
  companyParams,
  createPolicyBody,
  HARD_STOP_NOTE,
  incidentParams,
  policyParams,
  resolveIncidentBody,
  updatePolicyBody,
} from './schemas.ts';

const tags = ['budgets'];

export function registerBudgetRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.post(
    '/api/companies/:companyId/budgets/policies',
    {
      schema: {
        tags,
        summary: 'Create a budget policy',
        description: [
          'Board only. Any scope (company, agent, project), metric (`billed_cents`, `tokens` = input + output tokens, `runs` = finished runs) and window (`calendar_month_utc`, `lifetime`).',
          'Defaults: billed_cents; calendar_month_utc for company and agent, lifetime for project; warnPercent 80; hardStopEnabled, notifyEnabled, isActive true.',
          'One active policy per scope, metric and window (409: change that one instead). The scope must be this company or one of its agents or projects (422).',
          `Evaluated at once against what the window has observed. ${HARD_STOP_NOTE}`,
        ].join(' '),
        params: companyParams,
        body: createPolicyBody,
        response: {
          201: policyResponse,
          ...authenticated(),
          ...errors(
            ...BOARD_COMPANY_ERRORS,
            [409, 'an active policy for this scope, metric and window exists'],
            [422, 'the scope is not this company or one of its agents or projects'],
          ),
        },
      },
    },
    async (request, reply) => {
      const policy = await createPolicy(contextOf(db, request), request.params.companyId, request.body);
      return reply.status(201).send(presentPolicy(policy));
    },
  );

  app.patch(
    '/api/companies/:companyId/budgets/policies/:policyId',
    {
      schema: {
        tags,
        summary: 'Change a budget policy',
        description: [
          'Board only. Changes `amount`, `warnPercent`, `hardStopEnabled`, `notifyEnabled` or `isActive` (false switches the policy off; true back on, 409 when another active policy has its scope, metric and window). Scope, metric and window are fixed: create another policy for another one.',
          `Evaluated at once against what the window has observed, like a new policy. ${HARD_STOP_NOTE}`,
        ].join(' '),
        params: policyParams,
        body: updatePolicyBody,
        response: {
          200: policyResponse,
          ...authenticated(),
          ...errors(
            BOARD_COMPANY_ERRORS[0],
            [404, 'no such company, or no such policy in it'],
            [409, 'another active policy has this scope, metric and window'],
          ),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      // Looked up inside the caller's company first, as incidents are: another company's is 404 for everyone.
      const policy = await requirePolicy(db, company.id, request.params.policyId);
      return presentPolicy(await updatePolicy(contextOf(db, request), company.id, policy.id, request.body));
    },
  );

  app.get(
    '/api/companies/:companyId/budgets/overview',
    {
      schema: {
        tags,
        summary: 'Budget overview',
        description:
          'Active policies with what they observe in their current window and the utilisation (two decimals), open incidents, paused agents (all, and by budget) and projects, and approvals waiting for the board. Any caller with access to the company.',
        params: companyParams,
        response: {
          200: overviewResponse,
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) =>
      budgetOverview(db, (await requireCompanyAccess(db, actorOf(request), request.params.companyId)).id),
  );

  app.post(
    '/api/companies/:companyId/budget-incidents/:incidentId/resolve',
    {
      schema: {
        tags,
        summary: 'Resolve a budget incident',
        description: [
          'Board only. Body: `{ "action": "keep_paused" }` closes the incident and leaves the scope paused; `{ "action": "raise_budget_and_resume", "amount": <new budget> }` sets the policy to `amount`, which must exceed the spend observed now (422), and resumes exactly what this incident\'s stop paused, if it is still paused for the budget (an agent the board paused by hand stays paused). `note` optional.',
          'The linked budget_override_required approval is decided with it (raise: approved, keep: rejected). Deciding that approval is the other way out: approve resumes over budget, reject keeps paused. An incident resolved already is 409.',
        ].join(' '),
        params: incidentParams,
        body: resolveIncidentBody,
        response: {
          200: incidentResponse,
          ...authenticated(),
          ...errors(
            [403, "board access required, or the company is not one of the caller's"],
            [404, 'no such company, or no such incident in it'],
            [409, 'the incident is resolved already'],
            [422, 'amount does not exceed the observed spend'],
          ),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      // The incident is looked up inside the caller's company first: another company's is 404 for everyone.
      const incident = await requireIncident(db, company.id, request.params.incidentId);
      return presentIncident(await resolveIncident(contextOf(db, request), company.id, incident.id, request.body));
    },
  );
}

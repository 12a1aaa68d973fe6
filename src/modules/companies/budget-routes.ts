// The company's monthly budget (PATCH /api/companies/{companyId}/budgets): the budgets area keeps the
// policy, this route answers with the company it set it on.
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { monthlyBudgetOf } from '../budgets/budget-policies.ts';
import { BOARD_COMPANY_ERRORS, budgetBody, companyParams, HARD_STOP_NOTE } from '../budgets/schemas.ts';
import { companyResponse, presentCompany } from './present.ts';
import { setCompanyBudget } from './service.ts';

const tags = ['budgets'];

export function registerCompanyBudgetRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.patch(
    '/api/companies/:companyId/budgets',
    {
      schema: {
        tags,
        summary: "Set the company's monthly budget",
        description: `Board only. Writes the company's calendar-month billed_cents policy (0 switches it off); \`budgetMonthlyCents\` on the company is that policy. Evaluated at once: a budget at or below this month's spend is reached now. ${HARD_STOP_NOTE}`,
        params: companyParams,
        body: budgetBody,
        response: { 200: companyResponse, ...authenticated(), ...errors(...BOARD_COMPANY_ERRORS) },
      },
    },
    async (request) => {
      const company = await setCompanyBudget(
        contextOf(db, request),
        request.params.companyId,
        request.body.budgetMonthlyCents,
      );
      return presentCompany(company, await monthlyBudgetOf(db, 'company', company.id));
    },
  );
}

// Goals. Any caller with access to the company (board or one of its agents) may read and write;
// SPEC "Goals" marks no route board-only.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess, requireAccessible } from '../../core/access.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import type { Goal } from '../../db/rows.ts';
import { goalResponse, presentGoal } from './present.ts';
import { createGoalBody, listLimitQuery, patchGoalBody } from './schemas.ts';
import { createGoal, deleteGoal, findGoal, listGoals, updateGoal } from './service.ts';

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const goalParams = z.object({ goalId: z.uuid().describe('goal UUID') });
const tags = ['goals'];

const ACCESS = 'Any caller with access to the company: its board members and its agents.';
const GOAL_ERRORS = () => errors([403, 'the goal belongs to another company'], [404, 'no such goal']);
const RULES_422 =
  '`parentId` is not a goal of the same company or would create a cycle, or `ownerAgentId` is not an agent of the same company';

const createBody = createGoalBody.meta({
  examples: [
    {
      title: 'Ship the first release to paying customers',
      description: 'Everything needed for v1, by the end of the quarter',
      level: 'company',
      status: 'active',
    },
  ],
});
const patchBody = patchGoalBody.meta({ examples: [{ status: 'achieved' }] });

export function registerGoalRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  // Company access is checked after the lookup: 404 for a missing goal, 403 for another company's.
  const requireGoal = async (request: Parameters<typeof actorOf>[0], goalId: string): Promise<Goal> => {
    return requireAccessible(db, actorOf(request), await findGoal(db, goalId), 'goal');
  };

  app.get(
    '/api/companies/:companyId/goals',
    {
      schema: {
        tags,
        summary: "List a company's goals",
        description: `All goals of the company, oldest first, up to \`limit\` (default and maximum 1000). ${ACCESS}`,
        params: companyParams,
        querystring: listLimitQuery,
        response: {
          200: z.array(goalResponse).describe('The goals, oldest first'),
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return (await listGoals(db, company.id, request.query.limit)).map(presentGoal);
    },
  );

  app.post(
    '/api/companies/:companyId/goals',
    {
      schema: {
        tags,
        summary: 'Create a goal',
        description: `\`title\` is required; \`level\` defaults to task and \`status\` to planned. \`parentId\` and \`ownerAgentId\` must belong to the same company (422). ${ACCESS}`,
        params: companyParams,
        body: createBody,
        response: {
          201: goalResponse.describe('The goal, created'),
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company'], [422, RULES_422]),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return reply.status(201).send(presentGoal(await createGoal(contextOf(db, request), company.id, request.body)));
    },
  );

  app.get(
    '/api/goals/:goalId',
    {
      schema: {
        tags,
        summary: 'Get a goal',
        description: `The goal; company access is checked after the lookup (404 when missing, 403 when it belongs to another company). ${ACCESS}`,
        params: goalParams,
        response: { 200: goalResponse, ...authenticated(), ...GOAL_ERRORS() },
      },
    },
    async (request) => {
      return presentGoal(await requireGoal(request, request.params.goalId));
    },
  );

  app.patch(
    '/api/goals/:goalId',
    {
      schema: {
        tags,
        summary: 'Update a goal',
        description: `Any of the create fields; omitted fields stay unchanged, null clears a nullable one. A new \`parentId\` must be a goal of the same company that is not this goal or one of its descendants (422). ${ACCESS}`,
        params: goalParams,
        body: patchBody,
        response: {
          200: goalResponse.describe('The goal, updated'),
          ...authenticated(),
          ...GOAL_ERRORS(),
          ...errors([422, RULES_422]),
        },
      },
    },
    async (request) => {
      const goal = await requireGoal(request, request.params.goalId);
      return presentGoal(await updateGoal(contextOf(db, request), goal, request.body));
    },
  );

  app.delete(
    '/api/goals/:goalId',
    {
      schema: {
        tags,
        summary: 'Delete a goal',
        description: `Deletes the goal and answers the deleted row. Its child goals become top-level; issues and projects that referenced it lose the link (a project's legacy \`goalId\` moves to its next linked goal). ${ACCESS}`,
        params: goalParams,
        response: { 200: goalResponse.describe('The deleted goal'), ...authenticated(), ...GOAL_ERRORS() },
      },
    },
    async (request) => {
      const goal = await requireGoal(request, request.params.goalId);
      return presentGoal(await deleteGoal(contextOf(db, request), goal));
    },
  );
}

// Goals. Any caller with access to the company (board or one of its agents) may read and write;
// SPEC "Goals" marks no route board-only.
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireCompanyAccess, requireAccessible } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { presentGoal, type Goal } from './present.ts';
import { createGoalBody, listLimitQuery, patchGoalBody } from './schemas.ts';
import { createGoal, deleteGoal, findGoal, listGoals, updateGoal } from './service.ts';

const companyParams = z.object({ companyId: z.uuid() });
const goalParams = z.object({ goalId: z.uuid() });
const tags = ['goals'];

export function registerGoalRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const ctx = (request: Parameters<typeof actorOf>[0]) => ({ db, actor: actorOf(request) });

  // Company access is checked after the lookup: 404 for a missing goal, 403 for another company's.
  const requireGoal = async (request: Parameters<typeof actorOf>[0], goalId: string): Promise<Goal> => {
    return requireAccessible(db, actorOf(request), await findGoal(db, goalId), 'goal');
  };

  app.get('/api/companies/:companyId/goals', { schema: { tags, params: companyParams, querystring: listLimitQuery } }, async (request) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return (await listGoals(db, company.id, request.query.limit)).map(presentGoal);
  });

  app.post('/api/companies/:companyId/goals', { schema: { tags, params: companyParams, body: createGoalBody } }, async (request, reply) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return reply.status(201).send(presentGoal(await createGoal(ctx(request), company.id, request.body)));
  });

  app.get('/api/goals/:goalId', { schema: { tags, params: goalParams } }, async (request) => {
    return presentGoal(await requireGoal(request, request.params.goalId));
  });

  app.patch('/api/goals/:goalId', { schema: { tags, params: goalParams, body: patchGoalBody } }, async (request) => {
    const goal = await requireGoal(request, request.params.goalId);
    return presentGoal(await updateGoal(ctx(request), goal, request.body));
  });

  app.delete('/api/goals/:goalId', { schema: { tags, params: goalParams } }, async (request) => {
    const goal = await requireGoal(request, request.params.goalId);
    return presentGoal(await deleteGoal(ctx(request), goal));
  });
}

// What a caller sees of agents: each one's configuration in full or redacted (`agent.readConfig`,
// never a 403) and its monthly budget. The routes present these views.
import type { Ctx } from '../../core/context.ts';
import type { Agent } from '../../db/rows.ts';
import { monthlyBudgets } from '../budgets/budget-policies.ts';
import { configReader } from './policy.ts';
import type { AgentView } from './present.ts';

export async function agentViews(ctx: Ctx, list: Agent[]): Promise<(AgentView & { agent: Agent })[]> {
  const [readsConfig, budgets] = await Promise.all([
    configReader(ctx),
    monthlyBudgets(
      ctx.db,
      'agent',
      list.map((a) => a.id),
    ),
  ]);
  return list.map((agent) => {
    const budget = budgets.get(agent.id);
    if (!budget) throw new Error(`no monthly budget answered for agent ${agent.id}`);
    return { agent, canReadConfig: readsConfig(agent), budget };
  });
}

export async function agentView(ctx: Ctx, agent: Agent): Promise<AgentView> {
  const [view] = await agentViews(ctx, [agent]);
  if (!view) throw new Error('agentViews answered no view');
  return view;
}

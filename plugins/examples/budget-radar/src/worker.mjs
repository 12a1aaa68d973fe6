// budget-radar: the `radar` data key feeds a dashboard widget with each budget's burn rate and the
// day it runs out, from the company's costs summary (costs.read).
import { blocks, definePlugin, runWorker } from 'boardroom/plugin-sdk';
import { moneyBudgets, radarBlocks } from './forecast.mjs';

/** Names of the agents and projects budgets are set on, by id (only fetched when a budget needs them). */
async function scopeNames(host, budgets) {
  const names = {};
  if (budgets.some((b) => b.scopeType === 'agent'))
    for (const agent of await host.agents.list({})) names[agent.id] = agent.name;
  if (budgets.some((b) => b.scopeType === 'project'))
    for (const project of await host.projects.list({})) names[project.id] = project.name;
  return names;
}

runWorker(
  definePlugin({
    data: {
      async radar(_params, { host }) {
        const summary = await host.costs.summary({});
        return radarBlocks(blocks, summary, new Date(), await scopeNames(host, moneyBudgets(summary)));
      },
    },
  }),
);

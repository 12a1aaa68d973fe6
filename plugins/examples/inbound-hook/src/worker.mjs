// inbound-hook: each delivery to the `inbound` webhook (signed hmac_sha256, checked by the host
// before the worker sees it) becomes an issue, and the configured agent is woken with it.
import { definePlugin, runWorker } from 'boardroom/plugin-sdk';
import { configErrors, issueFromDelivery } from './delivery.mjs';

runWorker(
  definePlugin({
    webhooks: {
      async inbound(delivery, { host, config }) {
        const problems = configErrors(config);
        if (problems.length > 0) throw new Error(`not configured: ${problems.join('; ')}`);
        const { title, description } = issueFromDelivery(delivery, config.titlePrefix ?? '');
        const issue = await host.issues.create({
          title,
          description,
          ...(config.projectId ? { projectId: config.projectId } : {}),
        });
        // Plugins never assign (issues.write excludes the assignee): the agent is woken with the issue.
        await host.agents.wake({
          agentId: config.agentId,
          issueId: issue.id,
          reason: `inbound webhook delivery ${delivery.deliveryId}: ${title}`,
        });
        return { issueId: issue.id };
      },
    },
    validateConfig: (config) => {
      const errors = configErrors(config);
      return { ok: errors.length === 0, errors };
    },
  }),
);

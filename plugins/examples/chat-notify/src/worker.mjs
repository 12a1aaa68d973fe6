// chat-notify: approvals, budget incidents and failed runs, posted to a chat channel. The channel's
// URL is a company secret the `webhookUrl` config field references: the worker passes
// `{ "$secret": "webhookUrl" }` and the host puts the URL in, so the plugin never holds it.
import { definePlugin, runWorker, secret } from 'boardroom/plugin-sdk';
import { configErrors, messageFor, requestFor } from './messages.mjs';

async function notify(entry, { host, config }) {
  const message = messageFor(entry);
  if (!message) return { sent: false };
  const problems = configErrors(config);
  if (problems.length > 0) throw new Error(`not configured: ${problems.join('; ')}`);
  const res = await host.http.fetch({ url: secret('webhookUrl'), ...requestFor(config.format, message) });
  if (res.status < 200 || res.status >= 300)
    throw new Error(`the ${config.format} URL answered ${res.status}: ${String(res.body).slice(0, 200)}`);
  return { sent: true };
}

runWorker(
  definePlugin({
    events: {
      'approval.*': notify,
      'budget.warn_threshold_reached': notify,
      'budget.hard_limit_reached': notify,
      'heartbeat_run.failed': notify,
      'heartbeat_run.timed_out': notify,
    },
    validateConfig: (config) => {
      const errors = configErrors(config);
      return { ok: errors.length === 0, errors };
    },
  }),
);

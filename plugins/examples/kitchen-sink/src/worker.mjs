// The kitchen-sink worker: one handler for every surface its manifest declares, written with
// boardroom/plugin-sdk, for plugin authors to copy from. The shipped ../worker.mjs is this file
// bundled with the SDK (npm run plugins:build).
import { blocks, definePlugin, runWorker, secret } from 'boardroom/plugin-sdk';

const greetingOf = (config) => (typeof config?.greeting === 'string' && config.greeting ? config.greeting : 'Hello');

/** Open issues by status, from the host (capability issues.read). */
async function issuesByStatus(host) {
  const issues = await host.issues.list({ limit: 200 });
  const counts = {};
  for (const issue of issues) counts[issue.status] = (counts[issue.status] ?? 0) + 1;
  return { total: issues.length, counts };
}

const plugin = definePlugin({
  tools: {
    /** A read tool: answers with the text it was given, greeted as configured. */
    echo: (input, { config }) => ({ text: `${greetingOf(config)}: ${input.text}` }),
    /**
     * An outbound call with a secret (http.outbound to the `net` hosts, secrets.use): the host puts the
     * company secret the `apiToken` config field references into the header; the worker never sees it.
     */
    async 'api-status'(_input, { host, signal }) {
      if (signal.aborted) return null;
      const res = await host.http.fetch({
        url: 'https://api.example.com/status',
        headers: { 'x-api-token': secret('apiToken') },
      });
      return { status: res.status };
    },
  },

  data: {
    /** The dashboard widget and the issue tab (with params.entityId, the issue's id). */
    async summary(params, { host }) {
      const { total, counts } = await issuesByStatus(host);
      const last = (await host.state.get({ key: 'last-delivery' })).value;
      return blocks.payload(
        blocks.metric('Issues', total, { unit: 'count', caption: 'in this company' }),
        blocks.table(
          [
            { key: 'status', label: 'Status' },
            { key: 'count', label: 'Issues', unit: 'count' },
          ],
          Object.entries(counts).map(([status, count]) => ({ status, count })),
          { title: 'By status' },
        ),
        blocks.keyValue([{ label: 'Last webhook delivery', value: last?.deliveryId ?? null }]),
        typeof params.entityId === 'string'
          ? blocks.buttons([{ label: 'Post a greeting', action: 'post-greeting', params: { issueId: params.entityId } }])
          : blocks.form('post-greeting', { title: 'Greet an issue', submitLabel: 'Post' }),
      );
    },
  },

  actions: {
    /** Comments on the issue (capability comments.write; mentions in it wake nobody). */
    async 'post-greeting'(params, { host, config }) {
      const comment = await host.comments.create({
        issueId: params.issueId,
        body: `${greetingOf(config)} from the kitchen sink.`,
      });
      return { commentId: comment?.id ?? null };
    },
  },

  jobs: {
    /** Nightly: counts issues, keeps the figures in the plugin's state, and tells the widget's stream. */
    async 'nightly-summary'(input, { host, context }) {
      const summary = { ...(await issuesByStatus(host)), fireAt: input.fireAt, jobRunId: context.jobRunId };
      await host.state.set({ key: 'nightly-summary', value: summary });
      await host.stream.emit({ channel: 'ticks', data: { kind: 'summary', total: summary.total } });
    },
  },

  webhooks: {
    /** Signing `none`: anyone with the URL may call it, so it only records that it was called. */
    async open(input, { host }) {
      await host.state.set({ key: 'last-delivery', value: { deliveryId: input.deliveryId, webhook: 'open' } });
    },
    /** Signing `hmac_sha256`: the host checked the signature before the worker sees the delivery. */
    async signed(input, { host }) {
      await host.state.set({ key: 'last-delivery', value: { deliveryId: input.deliveryId, webhook: 'signed' } });
      await host.stream.emit({ channel: 'ticks', data: { kind: 'delivery', body: input.json } });
    },
  },

  events: {
    async 'issue.created'(entry, { host }) {
      await host.stream.emit({ channel: 'ticks', data: { kind: 'issue', issueId: entry.entityId } });
    },
    async 'approval.*'(entry, { host }) {
      await host.log({ level: 'info', message: `approval activity: ${entry.action}` });
    },
  },

  /** Called with a candidate config before it is saved. */
  validateConfig(config) {
    const errors = [];
    if (config.greeting !== undefined && (typeof config.greeting !== 'string' || config.greeting.length > 100))
      errors.push('greeting: a text of at most 100 characters');
    return { ok: errors.length === 0, errors };
  },

  async configChanged(config, { host }) {
    await host.log({ level: 'info', message: `config changed: greeting ${JSON.stringify(greetingOf(config))}` });
  },
});

runWorker(plugin);

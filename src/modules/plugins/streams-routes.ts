// GET /api/plugins/{pluginId}/bridge/stream/{channel}?companyId=: a plugin's stream for one company
// as Server-Sent Events (./streams.ts). Access is decided before the reply is taken over, so
// refusals are ordinary JSON errors.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { openSseResponse } from '../../http/sse.ts';
import { DEFAULT_STREAM_LIMITS, mayStillStream, PluginStreams, streamTarget } from './streams.ts';

const streamParams = z.object({
  pluginId: z.uuid().describe('plugin UUID'),
  channel: z.string().min(1).max(100).describe('a channel the manifest declares in `streams[]`'),
});
const streamQuery = z.object({ companyId: z.uuid().describe('the company whose stream to follow') });

export function registerPluginStreamRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const streams = new PluginStreams(deps.notifications, DEFAULT_STREAM_LIMITS, app.log);
  // Before the server stops accepting: open streams would otherwise keep app.close() waiting.
  app.addHook('preClose', async () => streams.close());

  app.get(
    '/api/plugins/:pluginId/bridge/stream/:channel',
    {
      schema: {
        tags: ['plugins'],
        summary: "Follow a plugin's stream for a company (Server-Sent Events)",
        description: [
          "A `text/event-stream` that stays open: a `ready` event, then one `message` event per `stream.emit` of the plugin's worker for this company on this channel, from any replica, its `data` the JSON the worker emitted. Live only: nothing is stored or replayed.",
          `A \`: keepalive\` comment every ${DEFAULT_STREAM_LIMITS.keepaliveMs / 1000} s; access is checked again every ${DEFAULT_STREAM_LIMITS.recheckMs / 1000} s. Board users of the company; agents 403.`,
        ].join(' '),
        params: streamParams,
        querystring: streamQuery,
        response: {
          200: {
            description: 'The stream; it stays open',
            content: { 'text/event-stream': { schema: z.string().describe('Server-Sent Events') } },
          },
          ...authenticated(),
          ...errors(
            [403, "an agent caller, or the company is not one of the caller's"],
            [404, 'no such company, no plugin enabled for it with this id, or a channel the plugin does not declare'],
          ),
        },
      },
    },
    async (request, reply) => {
      const target = await streamTarget(contextOf(db, request), {
        pluginId: request.params.pluginId,
        companyId: request.query.companyId,
        channel: request.params.channel,
      });
      const stillAllowed = async () => {
        const actor = await request.reauthenticate();
        return mayStillStream(db, actor ? { db, actor } : null, target);
      };
      const res = openSseResponse(request, reply);
      if (res) streams.attach(target, res, stillAllowed);
    },
  );
}

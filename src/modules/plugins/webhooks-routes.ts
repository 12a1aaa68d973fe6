// POST /api/plugins/{pluginId}/webhooks/{endpointKey}: a plugin webhook delivery (unauthenticated:
// it proves itself by the webhook's signing mode), and the rotation of a company's endpoint. The
// body is kept as raw bytes (any content type, up to MAX_WEBHOOK_BODY_BYTES) because signatures
// cover exactly the bytes sent. The answer does not wait on the worker: webhooks.ts.
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { SIGNING_MODES } from '../routines/signing.ts';
import type { CompanyPluginWebhook } from './present.ts';
import { companyPluginParams } from './schemas.ts';
import {
  MAX_WEBHOOK_BODY_BYTES,
  receiveWebhook,
  rotateWebhookEndpoint,
  type WebhookEndpointView,
  webhookPath,
} from './webhooks.ts';

const deliveryParams = z.object({
  pluginId: z.uuid().describe('plugin UUID'),
  endpointKey: z.string().min(1).max(100).describe("the company's endpoint key (from its webhook `url`)"),
});
const rotateParams = companyPluginParams.extend({
  key: z.string().min(1).max(100).describe("the manifest's webhook key"),
});

const webhookResponse = z.object({
  key: z.string(),
  url: z.string(),
  signing: z.enum(SIGNING_MODES),
  secret: z.string().optional().describe('the new signing secret (signed modes): shown in this answer only'),
});

/** The webhooks as a company's plugin list shows them: full URLs under BOARDROOM_PUBLIC_URL, else the origin the caller used. */
export function presentWebhooks(
  deps: AppDeps,
  request: FastifyRequest,
  pluginId: string,
  views: WebhookEndpointView[],
): CompanyPluginWebhook[] {
  const base = deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
  return views.map((v) => ({
    key: v.key,
    url: `${base}${webhookPath(pluginId, v.endpointKey)}`,
    signing: v.signing,
    ...(v.secret && { secret: v.secret }),
  }));
}

export function registerPluginWebhookRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const { masterKey } = deps.config;

  // A callback plugin: its set-up waits for nothing (a promise here would be one nobody reads).
  void app.register((plugin, _options, done) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_WEBHOOK_BODY_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/plugins/:pluginId/webhooks/:endpointKey',
      {
        config: { public: true },
        schema: {
          tags: ['plugins'],
          summary: 'Deliver a plugin webhook',
          description: [
            "No authentication: the request proves itself by the webhook's declared signing mode, as routine webhook triggers do.",
            '`bearer`: `Authorization: Bearer <secret>`. `hmac_sha256`: `X-Service-Signature` or `X-Hub-Signature-256` = hex HMAC-SHA256 of the raw body under the secret (`sha256=` prefix optional).',
            '`codehost_hmac`: the same signature headers over `<timestamp>.<raw body>` plus `X-Service-Timestamp` (Unix seconds) within 300 s of the server clock. `none`: no check.',
            `The body (any content type, at most ${MAX_WEBHOOK_BODY_BYTES} bytes) and headers are recorded, without authorization, signature, cookie and token headers, and the answer is 202 \`{ deliveryId }\` at once: the plugin's worker for the endpoint's company gets the delivery shortly after (once), never in this request.`,
            'Answers: 404 unknown endpoint key (a rotated one included); 401 missing or bad signature; 409 the plugin is not running for the company; 413 body too large.',
          ].join(' '),
          params: deliveryParams,
          response: {
            202: z.object({ deliveryId: z.uuid() }).describe('Recorded; handed to the worker shortly'),
            ...errors(
              [401, 'missing or invalid signature, or a timestamp outside the replay window'],
              [404, 'no webhook endpoint has this key'],
              [409, 'the plugin is disabled on the instance or for the company'],
              [413, `the body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes`],
            ),
          },
        },
      },
      async (request, reply) => {
        const deliveryId = await receiveWebhook(db, masterKey, {
          pluginId: request.params.pluginId,
          endpointKey: request.params.endpointKey,
          method: request.method,
          headers: request.headers,
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          nowMs: Date.now(),
        });
        return reply.status(202).send({ deliveryId });
      },
    );
    done();
  });

  app.post(
    '/api/companies/:companyId/plugins/:pluginId/webhooks/:key/rotate',
    {
      schema: {
        tags: ['plugins'],
        summary: "Rotate a company's plugin webhook endpoint",
        description:
          'A new endpoint key (the old URL answers 404 at once) and, for a signed mode, a new secret, shown in this answer only. Records `plugin.webhook_rotated`. Board users of the company; agents 403.',
        params: rotateParams,
        response: {
          200: webhookResponse.describe('The endpoint as it now is'),
          ...authenticated(),
          ...errors(
            [403, "an agent caller, or the company is not one of the caller's"],
            [404, 'no such company, plugin, or webhook endpoint of this company'],
          ),
        },
      },
    },
    async (request) => {
      const { companyId, pluginId, key } = request.params;
      const view = await rotateWebhookEndpoint(contextOf(db, request), masterKey, companyId, pluginId, key);
      const [presented] = presentWebhooks(deps, request, pluginId, [view]);
      return presented;
    },
  );
}

// POST /api/routine-triggers/public/{publicId}/fire: the one unauthenticated write. It keeps the
// body as raw bytes (any content type, up to MAX_FIRE_BODY_BYTES) because signatures cover exactly
// the bytes sent; the service parses them after the signature holds.
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { errors } from '../../http/openapi.ts';
import { firedResponse } from './present.ts';
import { fireWebhook, MAX_FIRE_BODY_BYTES } from './fire.ts';
import { publicParams } from './schemas.ts';

export function registerPublicTriggerRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  // A callback plugin: its set-up waits for nothing (a promise here would be one nobody reads).
  void app.register((plugin, _options, done) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_FIRE_BODY_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/routine-triggers/public/:publicId/fire',
      {
        config: { public: true },
        schema: {
          tags: ['routines'],
          summary: 'Fire a webhook trigger',
          description: [
            "No authentication: the request proves itself by the trigger's signing mode.",
            '`bearer`: `Authorization: Bearer <webhookSecret>`. `hmac_sha256`: `X-Service-Signature` or `X-Hub-Signature-256` = hex HMAC-SHA256 of the raw body under the secret (`sha256=` prefix optional).',
            "`codehost_hmac`: the same signature headers over `<timestamp>.<raw body>` plus `X-Service-Timestamp` (Unix seconds) within the trigger's replayWindowSec; the same delivery repeated inside the window returns the first run. `none`: no check.",
            `The body (JSON, at most ${MAX_FIRE_BODY_BYTES} bytes) is optional: its \`payload\` object, or else the whole object, is recorded on the run as triggerPayload. An \`Idempotency-Key\` header makes repeats return the first run.`,
            'Answers: 202 with the run id and status; 404 unknown id (also for a deleted trigger); 401 missing or bad signature; 409 trigger disabled or routine not active; 413 body too large; 400 body not a JSON object. No answer shows anything of the trigger.',
          ].join(' '),
          params: publicParams,
          response: {
            202: firedResponse,
            ...errors(
              [400, 'the body is not a JSON object (or `payload` is not an object)'],
              [401, 'missing or invalid signature, or a timestamp outside the replay window'],
              [404, 'no webhook trigger has this id'],
              [409, 'the trigger is disabled or its routine is not active'],
              [413, `the body is larger than ${MAX_FIRE_BODY_BYTES} bytes`],
            ),
          },
        },
      },
      async (request, reply) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const run = await fireWebhook(db, deps.config.masterKey, {
          publicId: request.params.publicId,
          headers: request.headers,
          rawBody,
          nowMs: Date.now(),
        });
        return reply
          .status(202)
          .send({ runId: run.id, status: run.status as z.output<typeof firedResponse>['status'] });
      },
    );
    done();
  });
}

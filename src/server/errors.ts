// One handler: every failure leaves as `{ error, details? }` with a safe status. Domain errors carry
// their status from the registry in core/errors.ts; zod, fastify and PostgreSQL errors are mapped
// here, and a plugin worker's BridgeError leaves as `502 { code, message }`; anything else is logged
// and answered with a generic 500.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { databaseErrorOf, DomainError, ERROR_STATUS } from '../core/errors.ts';
import { BridgeError } from '../modules/plugins/worker/errors.ts';

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | DomainError | Error, request, reply) => {
    if (err instanceof DomainError) {
      return reply
        .status(err.status)
        .send(err.details === undefined ? { error: err.message } : { error: err.message, details: err.details });
    }
    // A call through a plugin worker that failed: `502 { code, message }`, the codes clients rely on.
    if (err instanceof BridgeError) return reply.status(err.status).send(err.toJSON());
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({ path: v.instancePath, message: v.message }));
      return reply.status(400).send({ error: `invalid ${err.validationContext ?? 'request'}`, details });
    }
    // decodeURIComponent on a caller's text (a path segment, a source URL) throws URIError on a
    // malformed escape: bad input, wherever it is decoded.
    if (err instanceof URIError) return reply.status(400).send({ error: 'malformed percent-encoding in the request' });
    const mapped = databaseErrorOf(err);
    if (mapped?.code === 'unavailable') {
      request.log.warn({ err }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ error: mapped.message });
    }
    if (mapped) return reply.status(ERROR_STATUS[mapped.code]).send({ error: mapped.message });
    const status = (err as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.status(status).send({
        error:
          status === 400 && (err as FastifyError).code?.startsWith('FST_ERR_CTP')
            ? 'malformed request body'
            : err.message,
      });
    }
    request.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ error: 'internal server error' });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: `route ${request.method} ${request.url.split('?')[0]} not found` }),
  );
}

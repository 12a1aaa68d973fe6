// One error type, one handler: every failure leaves as `{ error, details? }` with a safe status.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: unknown) => new HttpError(400, message, details);
export const unauthorized = (message = 'authentication required') => new HttpError(401, message);
export const forbidden = (message = 'forbidden', details?: unknown) => new HttpError(403, message, details);
export const notFound = (what = 'resource') => new HttpError(404, `${what} not found`);
export const conflict = (message: string, details?: unknown) => new HttpError(409, message, details);
export const unprocessable = (message: string, details?: unknown) => new HttpError(422, message, details);
export const payloadTooLarge = (message: string) => new HttpError(413, message);

// PostgreSQL error codes that mean bad input rather than a server fault.
const PG_STATUS: Record<string, { status: number; message: string }> = {
  '22P02': { status: 400, message: 'invalid input value' },
  '22001': { status: 400, message: 'value too long' },
  '22003': { status: 400, message: 'number out of range' },
  '22007': { status: 400, message: 'invalid date or time' },
  '22008': { status: 400, message: 'date or time out of range' },
  '23505': { status: 409, message: 'conflicts with an existing record' },
  '23503': { status: 422, message: 'references a record that does not exist' },
  '40P01': { status: 409, message: 'concurrent update, retry' },
};

function pgCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 3; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError | Error, request, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.status).send(err.details === undefined ? { error: err.message } : { error: err.message, details: err.details });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({ path: v.instancePath, message: v.message }));
      return reply.status(400).send({ error: `invalid ${err.validationContext ?? 'request'}`, details });
    }
    const code = pgCode(err);
    const mapped = code ? PG_STATUS[code] : undefined;
    if (mapped) return reply.status(mapped.status).send({ error: mapped.message });
    const status = (err as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.status(status).send({ error: status === 400 && (err as FastifyError).code?.startsWith('FST_ERR_CTP') ? 'malformed request body' : err.message });
    }
    request.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ error: 'internal server error' });
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: `route ${request.method} ${request.url.split('?')[0]} not found` }));
}

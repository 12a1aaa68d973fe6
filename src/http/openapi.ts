// How routes describe themselves in the OpenAPI 3.1 document (/api/openapi.json, /api/docs): the
// error shape, reusable error responses, the run-id header, multipart bodies. Every route declares
// a summary, a description and a response schema per status it answers; the zod response schema
// also filters what leaves (a field a presenter forgets to drop can not leak). Nothing here depends
// on Fastify, so presenters can declare their response schemas with these pieces.
import { z } from 'zod';

export const errorBody = z.object({
  error: z.string().describe('what went wrong, for a person'),
  details: z
    .unknown()
    .optional()
    .describe('structured context: failing paths for 400, the lock holder for checkout 409s, ...'),
});

const ERROR_MEANINGS = {
  400: 'Invalid input: malformed JSON, wrong types, unknown enum values, NUL bytes, nesting too deep; `details` lists the failing paths',
  401: 'No valid credential (missing, invalid, revoked or expired)',
  403: 'Authenticated but not permitted (another company, a board-only route, a rule of this route)',
  404: 'Not found, or hidden because it belongs to another company where the route says so',
  409: 'Conflict with the current state (see `details`)',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Refused by a business rule (see `error`)',
} as const;

export type ErrorStatus = keyof typeof ERROR_MEANINGS;

/**
 * Error responses for a route's schema: `...errors(400, 404)`. 401 is added for every non-public
 * route by `authenticated` below, so routes list only what their own rules answer. A route-specific
 * meaning can replace the generic one: `errors(400, [409, 'the issue is held by another run'])`.
 */
export function errors(...statuses: (ErrorStatus | [ErrorStatus, string])[]): Record<number, z.ZodType> {
  const out: Record<number, z.ZodType> = {};
  for (const entry of statuses) {
    const [status, meaning] = Array.isArray(entry) ? entry : [entry, ERROR_MEANINGS[entry]];
    out[status] = errorBody.describe(meaning);
  }
  return out;
}

/** The errors every authenticated route can answer, whatever its rules. */
export const authenticated = () => errors(400, 401);

/** The header an agent's heartbeat run sends; read by checkout, release and issue updates. */
export const runIdHeader = z
  .string()
  .max(200)
  .optional()
  .describe(
    'The heartbeat run this agent request belongs to (a UUID). Agent JWTs carry it as the `run_id` claim, which wins.',
  );

/** The body of a multipart upload, for the docs only (the route reads the parts itself). */
export function multipartBody(fields: Record<string, { description: string; file?: boolean; required?: boolean }>) {
  const required = Object.entries(fields)
    .filter(([, f]) => f.required)
    .map(([name]) => name);
  return {
    consumes: ['multipart/form-data'],
    multipartBody: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(fields).map(([name, f]) => [
          name,
          f.file
            ? { type: 'string', format: 'binary', description: f.description }
            : { type: 'string', description: f.description },
        ]),
      ),
      ...(required.length > 0 && { required }),
    },
  };
}

// Response fields come from our own rows, so their schemas document formats without re-checking
// them on every response (a uuid regex per id per item is measurable on a 500-item list).
export const uuidOut = () => z.string().meta({ format: 'uuid' });
export const timestampOut = () => z.date().describe('ISO 8601 timestamp');

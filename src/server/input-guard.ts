// One guard for the whole API, before any route sees the input:
// - the request URL (path and query) must not carry NUL, raw or percent-encoded (`%00`);
// - a parsed body must not contain U+0000 in any string or key, nor nest deeper than MAX_BODY_DEPTH.
// PostgreSQL refuses U+0000 in text and jsonb, so such input can never be stored or matched: it is
// refused here (never stripped, so what a client sends is what is stored). Deep nesting is refused
// before zod, the services or JSON.stringify recurse into it. Free-form fields get their exact
// bounds (depth 32, bytes per field) from the shared schema in core/json.ts.
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../core/errors.ts';
import { findJsonProblem, MAX_BODY_DEPTH } from '../core/json.ts';

const NUL_IN_URL = /%00|\u0000/;

export function installInputGuard(app: FastifyInstance): void {
  // Callback style: no promise per request for checks that never wait.
  // onRequest, before authentication: nothing downstream (auth, routing params, handlers) sees it.
  app.addHook('onRequest', (request, _reply, done) => {
    done(
      NUL_IN_URL.test(request.url) ? badRequest('NUL characters (%00) are not accepted in the request URL') : undefined,
    );
  });
  // preValidation: after the body is parsed, before the route's zod schema runs.
  app.addHook('preValidation', (request, _reply, done) => done(bodyProblem(request.body)));
}

function bodyProblem(body: unknown): Error | undefined {
  // Raw bodies (webhook fires keep the bytes to check their signature) are judged by their route.
  if (
    body === null ||
    body === undefined ||
    Buffer.isBuffer(body) ||
    (typeof body !== 'object' && typeof body !== 'string')
  )
    return undefined;
  const problem = findJsonProblem(body, MAX_BODY_DEPTH);
  if (!problem) return undefined;
  // `path` is a JSON pointer into the body, as in the validation errors' details.
  const details = [{ path: problem.path, message: problem.message }];
  if (problem.kind === 'nul')
    return badRequest('NUL characters (U+0000) are not accepted in the request body', details);
  return badRequest(`request body is nested deeper than ${MAX_BODY_DEPTH} levels`, details);
}

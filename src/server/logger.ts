// Structured JSON logs (pino); readable lines on a terminal (log-format.ts). Credentials never
// reach them: request and response headers are not logged (the req and res serializers keep
// neither; a `headers` object logged on its own has its credential headers masked), sensitive
// query values are masked in logged URLs, and failed-query errors are logged without their bound
// parameters.
//
// Serializers rather than pino's `redact` paths: they give the same guarantee for these keys, cost
// nothing on lines without them, and `redact` walked its paths on every line (measured with pino
// 10: a request line took 7.0 µs with it, 3.2 µs without).
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';
import { readableDestination } from './log-format.ts';

const REDACTED = '[redacted]';
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'x-service-signature']);
// Login links carry `?token=`; webhook and plugin callbacks may carry keys or signatures.
const SENSITIVE_QUERY = /([?&][^=&#]*(?:token|key|secret|password|signature|sig|code|auth)[^=&#]*=)[^&#]*/gi;

export function redactUrl(url: string): string {
  // Only a query can hold a credential: most URLs have none, and skip the scan.
  return url.includes('?') ? url.replace(SENSITIVE_QUERY, `$1${REDACTED}`) : url;
}

function serializeHeaders(headers: Record<string, unknown>) {
  if (headers === null || typeof headers !== 'object') return headers;
  const safe: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers))
    safe[name] = CREDENTIAL_HEADERS.has(name.toLowerCase()) ? REDACTED : value;
  return safe;
}

/** A response is logged by its status only (never its headers, which may set a session cookie). */
function serializeResponse(res: { statusCode?: number }) {
  return { statusCode: res?.statusCode };
}

interface RequestLike {
  method?: string;
  url?: string;
  id?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

function serializeRequest(req: RequestLike) {
  return {
    method: req.method,
    url: redactUrl(req.url ?? ''),
    remoteAddress: req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * drizzle's DrizzleQueryError message (and so its stack) ends with the query's parameters, which
 * may be key hashes or other values that do not belong in a log: keep the statement, drop them.
 */
function serializeError(err: Error & { cause?: unknown; code?: unknown }) {
  const safe = (text: string) => text.replace(/\nparams:[\s\S]*$/, '\nparams: [not logged]');
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  const cause = err.cause as { message?: unknown; code?: unknown } | undefined;
  return {
    type: err.constructor?.name ?? 'Error',
    message: safe(String(err.message)),
    code: typeof err.code === 'string' ? err.code : undefined,
    stack: `${err.constructor?.name ?? 'Error'}: ${safe(String(err.message))}\n${frames.join('\n')}`,
    cause: cause && typeof cause === 'object' ? { message: safe(String(cause.message)), code: cause.code } : undefined,
  };
}

/**
 * Standard output by default. On a terminal, readable lines (log-format.ts; coloured unless
 * NO_COLOR is set). Otherwise JSON, written asynchronously and in batches: lines gather until 4 KiB
 * (or 100 ms, whichever comes first) and go out in one write, instead of a write per line (a write
 * per request was 15% of the server's CPU on health, one per in-flight batch still 7%). A quiet
 * server's lines appear within 100 ms, and pino flushes what is pending when the process exits.
 */
export function standardOutput(
  stdout: NodeJS.WriteStream = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): pino.DestinationStream {
  if (stdout.isTTY) return readableDestination(stdout, !env.NO_COLOR);
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
}

export function createLogger(level: string, destination: pino.DestinationStream = standardOutput()): Logger {
  return pino(
    {
      level,
      serializers: { req: serializeRequest, res: serializeResponse, headers: serializeHeaders, err: serializeError },
    },
    destination,
  );
}

/**
 * One line per request, when it ends, instead of fastify's two (one on arrival, one at the end):
 * the line keeps what both said: reqId (the request logger's binding), the method and the URL with
 * credential-like query values masked (the `req` serializer), the status and the duration. Every
 * other line fastify writes (error handling, streams) is unchanged.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error)
      request.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

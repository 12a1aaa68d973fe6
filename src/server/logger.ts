// Structured JSON logs (pino). Credentials never reach them: request headers are not logged (and
// are redacted if someone logs them), sensitive query values are masked in logged URLs, and
// failed-query errors are logged without their bound parameters.
import pino, { type Logger } from 'pino';

const REDACTED = '[redacted]';
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-signature"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];
// Login links carry `?token=`; webhook and plugin callbacks may carry keys or signatures.
const SENSITIVE_QUERY = /([?&][^=&#]*(?:token|key|secret|password|signature|sig|code|auth)[^=&#]*=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, `$1${REDACTED}`);
}

interface RequestLike {
  method?: string;
  url?: string;
  id?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

function serializeRequest(req: RequestLike) {
  return { method: req.method, url: redactUrl(req.url ?? ''), remoteAddress: req.socket?.remoteAddress, remotePort: req.socket?.remotePort };
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

export function createLogger(level: string, destination: NodeJS.WritableStream = process.stdout): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
      serializers: { req: serializeRequest, err: serializeError },
    },
    destination as pino.DestinationStream,
  );
}

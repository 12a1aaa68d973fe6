// The error registry: every failure the domain reports has a code, an HTTP status and a message, in
// this one place. The HTTP layer renders a DomainError as `{ error, details? }` with its status;
// nothing below the server knows about HTTP.
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string, details?: unknown) => new DomainError('bad_request', message, details);
export const unauthorized = (message = 'authentication required') => new DomainError('unauthorized', message);
export const forbidden = (message = 'forbidden', details?: unknown) => new DomainError('forbidden', message, details);
export const notFound = (what = 'resource') => new DomainError('not_found', `${what} not found`);
export const conflict = (message: string, details?: unknown) => new DomainError('conflict', message, details);
export const payloadTooLarge = (message: string) => new DomainError('payload_too_large', message);
export const unsupportedMediaType = (message: string) => new DomainError('unsupported_media_type', message);
export const unprocessable = (message: string, details?: unknown) => new DomainError('unprocessable', message, details);

// PostgreSQL error codes that mean bad input rather than a server fault.
export const PG_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  '22P02': { code: 'bad_request', message: 'invalid input value' },
  '22P05': { code: 'bad_request', message: 'unsupported character in input' },
  '22021': { code: 'bad_request', message: 'invalid byte sequence in input' },
  '22001': { code: 'bad_request', message: 'value too long' },
  '22003': { code: 'bad_request', message: 'number out of range' },
  '22007': { code: 'bad_request', message: 'invalid date or time' },
  '22008': { code: 'bad_request', message: 'date or time out of range' },
  '54001': { code: 'bad_request', message: 'input nested too deeply' },
  '23505': { code: 'conflict', message: 'conflicts with an existing record' },
  '23503': { code: 'unprocessable', message: 'references a record that does not exist' },
  '40P01': { code: 'conflict', message: 'concurrent update, retry' },
  // The database is shutting down, starting up, out of connections or the link broke: retry later.
  '57P01': { code: 'unavailable', message: 'database unavailable, retry' },
  '57P02': { code: 'unavailable', message: 'database unavailable, retry' },
  '57P03': { code: 'unavailable', message: 'database unavailable, retry' },
  '53300': { code: 'unavailable', message: 'database unavailable, retry' },
  '08000': { code: 'unavailable', message: 'database unavailable, retry' },
  '08003': { code: 'unavailable', message: 'database unavailable, retry' },
  '08006': { code: 'unavailable', message: 'database unavailable, retry' },
};

/** Socket-level failures reaching PostgreSQL (no SQLSTATE): the database is unreachable. */
function isDatabaseUnreachable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 3; depth++) {
    const { code, message, syscall } = e as { code?: unknown; message?: unknown; syscall?: unknown };
    if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
    // The embedded database's unix socket is gone while it is down (any other ENOENT is not this).
    if (code === 'ENOENT' && syscall === 'connect') return true;
    // The last: a query (a transaction's rollback) on a client whose connection already broke, as
    // when the database restarts under a busy server.
    if (
      typeof message === 'string' &&
      /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What a failed query means for the caller, if anything is known: a SQLSTATE of PG_ERRORS (on the
 * error or its cause, as drizzle wraps it), else a connection that failed at the socket (503).
 * Unknown codes fall through to that check: errno codes can look like SQLSTATEs (EPIPE has five
 * capitals), and one did turn a broken database connection into a 500.
 */
export function databaseErrorOf(err: unknown): { code: ErrorCode; message: string } | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 3; depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && Object.hasOwn(PG_ERRORS, code)) return PG_ERRORS[code];
    e = (e as { cause?: unknown }).cause;
  }
  return isDatabaseUnreachable(err) ? PG_ERRORS['08006'] : undefined;
}

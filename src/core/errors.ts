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
};

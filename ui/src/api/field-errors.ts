// A refused body's problems, for forms that show each at its field: a 400's
// `details: [{ path: '/runtimeConfig/maxConcurrentRuns', message }]`.
import { ApiError } from './client';

/** Path → the first message about it (`/warnPercent`, `/adapterConfig/timeoutSec`). */
export function fieldErrorsByPath(details: unknown): Record<string, string> {
  if (!Array.isArray(details)) return {};
  const errors: Record<string, string> = {};
  for (const detail of details as unknown[]) {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
    if (typeof path === 'string' && typeof message === 'string') errors[path] ??= message;
  }
  return errors;
}

/** A refused body's problems by top-level field (`warnPercent`). */
export function bodyFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrorsByPath(error.details)))
    errors[path.replace(/^\//, '').split('/')[0] ?? ''] ??= message;
  return errors;
}

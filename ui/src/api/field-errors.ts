// A refused body's problems by top-level field, for forms that show each at its field: a 400's
// `details: [{ path: '/warnPercent', message }]`.
import { ApiError } from './client';

export function bodyFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const errors: Record<string, string> = {};
  for (const detail of error.details as unknown[]) {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') continue;
    const field = path.replace(/^\//, '').split('/')[0] ?? '';
    errors[field] ??= message;
  }
  return errors;
}

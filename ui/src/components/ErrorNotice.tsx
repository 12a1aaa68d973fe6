import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../api/client';

/** What went wrong, in the server's words, and what to do about it. `children`: particulars of the failure the message alone does not carry (e.g. per-field problems). */
export function ErrorNotice({
  error,
  retry,
  title = 'Something went wrong',
  children,
}: {
  error: unknown;
  retry?: () => void;
  title?: string;
  children?: ReactNode;
}) {
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title}</strong>
      <p>{errorMessage(error)}</p>
      {/* A form that places the problems at its fields passes what is left as children instead. */}
      {children ??
        (fieldProblems(error).length > 0 && (
          <ul>
            {fieldProblems(error).map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ))}
      <p className="muted">{advice(error)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A 400's failing paths (`details: [{ path, message }]`), as "budgetMonthlyCents: Too big…". */
function fieldProblems(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.status !== 400 || !Array.isArray(error.details)) return [];
  return error.details.flatMap((detail: unknown) => {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
    if (typeof message !== 'string') return [];
    const field = typeof path === 'string' ? path.replace(/^\//, '').replaceAll('/', '.') : '';
    return [field ? `${field}: ${message}` : message];
  });
}

function advice(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Reload the page; if it happens again, the server log has the details.';
  if (error.status === 0) return 'Check that Boardroom is running and reachable, then try again.';
  if (error.status === 403) return 'Your account has no access to this. Ask the company owner to add you.';
  if (error.status === 404) return 'It may have been deleted, or the link is wrong.';
  if (error.status === 409 || error.status === 422) return 'Reload to see the current state, then try again.';
  if (error.status >= 500) return 'This is a server fault; the server log has the details.';
  return 'Check the input and try again.';
}

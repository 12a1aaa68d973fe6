// The board's one way to call the API: openapi-fetch over the generated `paths`, so a call to a route
// or with a field the server does not describe fails to type-check. Every failed call becomes an
// ApiError whose message is the server's own `error` text; a 401 sends the board to sign-in.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener = () => undefined;
/** The app shell decides what a 401 means (go to sign-in); the client only reports it. */
export function setUnauthorizedListener(listener: UnauthorizedListener): void {
  onUnauthorized = listener;
}

const errors: Middleware = {
  async onResponse({ response }) {
    if (response.ok || response.status === 302) return undefined;
    if (response.status === 401) onUnauthorized();
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: string; message?: string; code?: string; details?: unknown } | null;
    // A plugin bridge error is `502 { code, message }` (issue 27): its message is the worker's story.
    throw new ApiError(
      response.status,
      body?.error ?? body?.message ?? describeStatus(response.status),
      body?.details ?? (body?.code ? { code: body.code } : undefined),
    );
  },
  onError({ error }) {
    // fetch itself failed: the server is down or the network dropped.
    throw new ApiError(
      0,
      `Boardroom could not be reached (${error instanceof Error ? error.message : String(error)}). Check that the server is running, then try again.`,
    );
  },
};

function describeStatus(status: number): string {
  if (status >= 500) return `the server failed (HTTP ${status}); its log has the details`;
  return `the request was refused (HTTP ${status})`;
}

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(errors);

/** The data of a successful call (errors were already thrown by the middleware). */
export function data<T>(result: { data?: T; error?: unknown }): T {
  if (result.data === undefined) throw new ApiError(0, 'the server answered without a body');
  return result.data;
}

/** A message for anything a query or mutation threw, fit to show a person. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

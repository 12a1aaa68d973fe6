// Every API route states its contract: a summary, a description and a response schema for its
// success status. Checked when a route is registered, so a route that would answer with an
// unfiltered object (a presenter's forgotten field leaking) or an undocumented shape cannot start.
// Hidden routes (`/`, the OpenAPI document) and the docs UI's own routes are exempt.
import type { FastifyInstance } from 'fastify';

export function installRouteContract(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs') || route.method === 'HEAD') return;
    const schema = route.schema as
      | { hide?: boolean; summary?: string; description?: string; response?: Record<string, unknown> }
      | undefined;
    if (schema?.hide) return;
    const missing = [
      !schema?.summary && 'summary',
      !schema?.description && 'description',
      !Object.keys(schema?.response ?? {}).some((status) => /^[23]/.test(status)) && 'a success response schema',
    ].filter(Boolean);
    if (missing.length > 0) throw new Error(`route ${String(route.method)} ${route.url} lacks ${missing.join(', ')}`);
  });
}

// The API refuses requests whose Origin is the opaque `null` (issue 27 section 5). A plugin's frame
// runs in `<iframe sandbox="allow-scripts allow-forms">` without allow-same-origin, so everything it
// sends carries `Origin: null`: whatever a plugin page tries, the API answers it nothing. (A sandboxed
// document, a data: URL or a file: page are the only senders of that value; no board page is one.)
// The frame's own files (/plugin-frames/...) are outside /api and stay reachable: they are public.
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../core/errors.ts';

export function installOriginGuard(app: FastifyInstance): void {
  // Callback style, before authentication: a refused request costs one header check.
  app.addHook('onRequest', (request, _reply, done) => {
    done(
      request.headers.origin === 'null' && request.url.startsWith('/api/')
        ? forbidden(
            'requests from an opaque origin (Origin: null, e.g. a sandboxed plugin frame) are refused: a plugin page talks to the board through its message channel, never to the API',
          )
        : undefined,
    );
  });
}

// Serves the board web UI (built into UI_DIST_DIR by bin/ui-build.js) at `/`: its hashed assets
// cached for a year, and index.html, never cached, for every other path outside /api, so a link to
// any page of the board (a bookmark, a reload) opens it. Everything under /api stays the API's.
//
// A server serves the build it started with: the asset routes are the files found at start, and
// index.html is read then too. A rebuild under a running server (ui/ edited, another instance
// starting) swaps the files on disk; the new index.html would name assets this server has no routes
// for, and every page would load blank. The previous build's assets stay on disk for a day
// (bin/ui-build.js), so the index read at start keeps working; a restart serves the new build.
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { App } from '../http/deps.ts';
import { UI_DIST_DIR } from '../paths.ts';

const INDEX = 'index.html';

export async function installBoardUi(app: App, dir = UI_DIST_DIR): Promise<void> {
  // Every route added here is public: the pages hold no data, the API they call checks access.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) route.config = { ...(route.config as object), public: true };
  });
  if (!existsSync(path.join(dir, INDEX))) {
    app.get('/*', { schema: { hide: true } }, async (request, reply) =>
      request.url.startsWith('/api/')
        ? reply.callNotFound()
        : reply
            .status(503)
            .type('text/plain')
            .send(
              'The board web UI is not built. `npm start` builds it; or run `npm run ui:build`. The API is at /api (docs at /api/docs).\n',
            ),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    // Files found at start get their own routes; the SPA fallback below takes the rest.
    wildcard: false,
    // The build writes .br and .gz beside each asset (bin/ui-build.js); sent when the browser accepts them.
    preCompressed: true,
    index: false,
    setHeaders: (reply, filePath) => {
      reply.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const index = readFileSync(path.join(dir, INDEX));
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.callNotFound();
    // An unknown file (a stale asset after an upgrade) is a 404, not the page.
    if (path.extname(request.url.split('?')[0] ?? '') !== '')
      return reply.status(404).send({ error: `no file ${request.url.split('?')[0]}` });
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
  });
}

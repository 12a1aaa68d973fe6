// Serves the board web UI (built into UI_DIST_DIR by bin/ui-build.js) at `/`: its hashed assets
// cached for a year, and index.html, never cached, for every other path outside /api, so a link to
// any page of the board (a bookmark, a reload) opens it. Everything under /api stays the API's.
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { App } from '../http/deps.ts';
import { UI_DIST_DIR } from '../paths.ts';

const INDEX = 'index.html';

export async function installBoardUi(app: App): Promise<void> {
  // Every route added here is public: the pages hold no data, the API they call checks access.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) route.config = { ...(route.config as object), public: true };
  });
  if (!existsSync(path.join(UI_DIST_DIR, INDEX))) {
    app.get('/*', { schema: { hide: true } }, async (request, reply) =>
      request.url.startsWith('/api/') ? reply.callNotFound() : reply.status(503).type('text/plain').send('The board web UI is not built. `npm start` builds it; or run `npm run ui:build`. The API is at /api (docs at /api/docs).\n'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: UI_DIST_DIR,
    // Files found at start get their own routes; the SPA fallback below takes the rest.
    wildcard: false,
    // The build writes .br and .gz beside each asset (bin/ui-build.js); sent when the browser accepts them.
    preCompressed: true,
    index: false,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.callNotFound();
    // An unknown file (a stale asset after an upgrade) is a 404, not the page.
    if (path.extname(request.url.split('?')[0] ?? '') !== '') return reply.status(404).send({ error: `no file ${request.url.split('?')[0]}` });
    return reply.header('cache-control', 'no-cache').sendFile(INDEX);
  });
}

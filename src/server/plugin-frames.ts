// A frame slot's files (issue 27 section 5): GET /plugin-frames/{pluginId}/{path} serves the files of
// a plugin's frame pages from this replica's cache (materialisePlugin), outside /api because the frame
// holds no session. The board shows them in `<iframe sandbox="allow-scripts allow-forms">` (never
// allow-same-origin), and every answer carries a CSP that lets the page load only its own plugin's
// scripts, styles and images, connect only to the manifest's `net` hosts, and be framed only by the
// board. Served only while the plugin is ready on the instance, holds `ui.frame`, and at least one
// company has it enabled (the route is public: the page is the plugin's code, not anyone's data), and
// only files inside the folder of one of its frame entries.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { App, AppDeps } from '../http/deps.ts';
import { pluginCompanyEnablements, plugins } from '../db/schema/index.ts';
import { materialisePlugin } from '../modules/plugins/store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface FrameManifest {
  capabilities?: string[];
  net?: string[];
  ui?: { slots?: { kind?: string; entry?: string }[] };
}

/** The CSP of a frame page: its own path for code, the manifest's hosts for connections, the board as its only parent. */
export function frameContentSecurityPolicy(net: string[]): string {
  const connect = net.length > 0 ? net.map((host) => `https://${host}`).join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The package-relative folders holding the manifest's frame entries ('' for the package root). */
function frameFolders(manifest: FrameManifest): string[] {
  return (manifest.ui?.slots ?? [])
    .filter((slot) => slot.kind === 'frame' && slot.entry)
    .map((slot) => path.posix.dirname(path.posix.normalize(slot.entry ?? '')))
    .map((dir) => (dir === '.' ? '' : `${dir}/`));
}

export function registerPluginFrames(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const missing = { error: 'no such plugin frame file' };
  app.get(
    '/plugin-frames/:pluginId/*',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const { pluginId, '*': rest } = request.params as { pluginId: string; '*': string };
      const file = path.posix.normalize(rest ?? '');
      if (!UUID.test(pluginId) || file.startsWith('..') || file.startsWith('/') || file === '.')
        return reply.status(404).send(missing);
      const [plugin] = await db
        .select({ status: plugins.status, manifest: plugins.manifest, files: plugins.files })
        .from(plugins)
        .where(eq(plugins.id, pluginId));
      const manifest = (plugin?.manifest ?? {}) as FrameManifest;
      if (!plugin || plugin.status !== 'ready' || !manifest.capabilities?.includes('ui.frame'))
        return reply.status(404).send(missing);
      if (!Object.hasOwn(plugin.files, file) || !frameFolders(manifest).some((dir) => file.startsWith(dir)))
        return reply.status(404).send(missing);
      const [enabled] = await db
        .select({ companyId: pluginCompanyEnablements.companyId })
        .from(pluginCompanyEnablements)
        .where(and(eq(pluginCompanyEnablements.pluginId, pluginId), eq(pluginCompanyEnablements.status, 'enabled')))
        .limit(1);
      if (!enabled) return reply.status(404).send(missing);
      const dir = await materialisePlugin(db, deps.config.dataDir, pluginId);
      const bytes = await readFile(path.join(dir, file));
      return (
        reply
          .header('content-security-policy', frameContentSecurityPolicy(manifest.net ?? []))
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'no-cache')
          // A module script of a sandboxed (opaque-origin) page is fetched in CORS mode with Origin: null;
          // these files are public and carry no credentials, so any origin may read them.
          .header('access-control-allow-origin', '*')
          .type(CONTENT_TYPES[path.posix.extname(file).toLowerCase()] ?? 'application/octet-stream')
          .send(bytes)
      );
    },
  );
}

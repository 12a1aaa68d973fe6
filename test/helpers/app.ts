// A real app on its own copy of the migrated template database, driven through HTTP (inject).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import pg from 'pg';
import { connectDatabase, type Database } from '../../src/db/client.ts';
import { users } from '../../src/db/schema/index.ts';
import { createBoardKey, ensureInstanceOwner } from '../../src/modules/auth/service.ts';
import { buildApp } from '../../src/server/app.ts';
import type { App, AppDeps, StreamLimits } from '../../src/http/deps.ts';
import { DEFAULT_CODE_HOST, type CodeHostConfig, type Config, type DeploymentMode } from '../../src/core/config.ts';
import { localStorage } from '../../src/storage/storage.ts';
import { ENGINE_DEFAULTS, startEngine, type Engine, type EngineSettings } from '../../src/engine/index.ts';
import { startBudgetStops, type BudgetStops } from '../../src/engine/budget-stops.ts';
import type { PriceTable } from '../../src/core/pricing.ts';
import pino from 'pino';
import { listenForNotifications } from '../../src/db/notifications.ts';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { pluginWorkersOf } from '../../src/modules/plugins/routes.ts';

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  raw: Buffer;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw payload (multipart, malformed JSON); sent as is. */
  payload?: string | Buffer;
}

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  /** Board key of the instance owner (access to every company). */
  ownerToken: string;
  request<T = any>(method: string, url: string, opts?: RequestOptions): Promise<Response<T>>;
  /** A new board user with a key and no memberships. */
  newBoardUser(name?: string): Promise<{ userId: string; token: string }>;
  /** A new company owned by a new board user (or the given token's user). */
  newCompany(token?: string, body?: Record<string, unknown>): Promise<{ company: any; token: string }>;
  /** Started when asked for (`engine` option): the app then also listens on a real port. */
  engine: Engine | null;
  /** http://127.0.0.1:port when the app listens (`listen` or `engine`), else null. */
  baseUrl: string | null;
  databaseUrl: string;
  /** Ends this app (and its engine) without dropping a database another app shares. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  deploymentMode?: DeploymentMode;
  maxUploadBytes?: number;
  /** Listen on a real port (for streams and callers outside the process); implied by `engine`. */
  listen?: boolean;
  /** Start the engine (dispatcher, executor, reaper) with these settings over the defaults. */
  engine?: Partial<EngineSettings>;
  /** A second replica: same database, secrets and instance owner as `replicaOf`, its own data dir. */
  replicaOf?: TestApp;
  /** Bounds of the live event streams over their defaults. */
  events?: Partial<StreamLimits>;
  /** BOARDROOM_MODEL_PRICES of this app (and its engine). */
  modelPrices?: PriceTable;
  /** Code-host and catalog base URLs (a fake host in the test). */
  codeHost?: CodeHostConfig;
  /** Sweep of the budget-stop consumer an app without an engine runs (default the engine's, 500 ms). */
  budgetStopMs?: number;
  /** The engine's logger (a test that reads its lines passes one); silent otherwise. */
  logger?: pino.Logger;
  /** BOARDROOM_PLUGIN_NET_ALLOW of this app: `host:port` pairs plugins may reach over http and on any address. */
  pluginNetAllow?: string[];
  /** How plugins' http.fetch resolves names (a test points a manifest's `net` host at its local receiver). */
  pluginNetLookup?: AppDeps['pluginNetLookup'];
}

let counter = 0;

export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const baseUrl = process.env.BOARDROOM_TEST_DATABASE_URL;
  const template = process.env.BOARDROOM_TEST_TEMPLATE;
  if (!baseUrl || !template) throw new Error('run tests with `npm test` (it prepares the test database)');
  const shared = opts.replicaOf;
  const dbName = shared
    ? new URL(shared.databaseUrl).pathname.slice(1)
    : `t_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  if (!shared) {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${dbName} template ${template}`);
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const database = connectDatabase(databaseUrl, 20);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-app-'));
  const config: Config = {
    dataDir,
    host: '127.0.0.1',
    port: 0,
    deploymentMode: opts.deploymentMode ?? 'authenticated',
    masterKey: shared?.config.masterKey ?? randomBytes(32),
    jwtSecret: shared?.config.jwtSecret ?? randomBytes(32),
    maxUploadBytes: opts.maxUploadBytes ?? 1024 * 1024,
    logLevel: 'silent',
    runLeaseSec: 30,
    runRetentionDays: 30,
    modelPrices: opts.modelPrices ?? {},
    codeHost: opts.codeHost ?? DEFAULT_CODE_HOST,
    ...(opts.pluginNetAllow && { pluginNetAllow: opts.pluginNetAllow }),
  };
  const owner = await ensureInstanceOwner(database.db);
  const logger = opts.logger ?? pino({ level: process.env.BOARDROOM_TEST_LOG ?? 'silent' });
  const notifications = listenForNotifications(databaseUrl, logger);
  // Shared by the app and the engine, as in `boardroom run`.
  const adapters = createAdapterRegistry();
  const app = await buildApp({
    config,
    database,
    notifications,
    adapters,
    storage: localStorage(path.join(dataDir, 'storage')),
    localBoardUserId: owner.id,
    eventLimits: opts.events,
    logger: false,
    pluginNetLookup: opts.pluginNetLookup,
  });
  await app.ready();
  const ownerToken = shared?.ownerToken ?? (await createBoardKey(database.db, owner.id, 'test owner')).token;
  let engine: Engine | null = null;
  let listenUrl: string | null = null;
  if (opts.engine || opts.listen) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    listenUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }
  if (opts.engine) {
    engine = await startEngine({
      database,
      notifications,
      logger,
      registry: adapters,
      pluginWorkers: pluginWorkersOf(app),
      settings: {
        apiUrl: listenUrl!,
        dataDir,
        jwtSecret: config.jwtSecret,
        masterKey: config.masterKey,
        prices: config.modelPrices,
        ...opts.engine,
      },
    });
  }
  // Every replica's engine applies hard budget stops; an app without one still runs that consumer,
  // as a deployment would, so a stop crossed through the API lands without dispatching any work.
  const budgetStops: BudgetStops | null = engine
    ? null
    : startBudgetStops(database.db, notifications, opts.budgetStopMs ?? ENGINE_DEFAULTS.budgetStopMs, logger);

  const request: TestApp['request'] = async (method, reqUrl, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let payload: string | Buffer | undefined = o.payload;
    if (payload === undefined && o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.inject({ method: method as any, url: reqUrl, headers, payload });
    const type = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      body: (type.includes('json') ? res.json() : res.body) as any,
      headers: res.headers,
      raw: res.rawPayload,
    };
  };

  const newBoardUser: TestApp['newBoardUser'] = async (name = 'Board user') => {
    const [user] = await database.db
      .insert(users)
      .values({ name, email: `${randomUUID()}@example.test` })
      .returning();
    return { userId: user!.id, token: (await createBoardKey(database.db, user!.id, 'test')).token };
  };

  const newCompany: TestApp['newCompany'] = async (token, body = {}) => {
    const t = token ?? (await newBoardUser()).token;
    const res = await request('POST', '/api/companies', { token: t, body: { name: `Company ${++counter}`, ...body } });
    if (res.status !== 201) throw new Error(`company create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { company: res.body, token: t };
  };

  let closing: Promise<void> | null = null;
  const close = () => (closing ??= closeApp());
  const closeApp = async () => {
    await engine?.stop();
    await budgetStops?.stop();
    await app.close();
    await notifications.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    if (shared) return;
    const cleanup = new pg.Client({ connectionString: baseUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${dbName} with (force)`);
    await cleanup.end();
  };
  return {
    app,
    database,
    config,
    ownerToken,
    request,
    newBoardUser,
    newCompany,
    engine,
    baseUrl: listenUrl,
    databaseUrl,
    close,
  };
}

/** startTestApp plus an `after` hook that closes it when the file's tests end. */
export async function useTestApp(opts?: Parameters<typeof startTestApp>[0]): Promise<TestApp> {
  const t = await startTestApp(opts);
  after(() => t.close());
  return t;
}

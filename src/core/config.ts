// Configuration from flags and environment, resolved once at start. See README.md, "Configuration".
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parsePriceTable, type PriceTable } from './pricing.ts';

export type DeploymentMode = 'authenticated' | 'local_trusted';

export interface Config {
  dataDir: string;
  host: string;
  port: number;
  /** External PostgreSQL; when absent the embedded cluster under dataDir/db is used. */
  databaseUrl?: string;
  deploymentMode: DeploymentMode;
  /** AES-256-GCM master key for secrets (32 bytes). */
  masterKey: Buffer;
  /** HS256 key for agent run JWTs. */
  jwtSecret: Uint8Array;
  /** Upload limit for attachments and logos. */
  maxUploadBytes: number;
  logLevel: string;
  /** Lease of a live run (BOARDROOM_RUN_LEASE_SEC): how long a run outlives a replica that died running it. */
  runLeaseSec: number;
  /** Finished runs, their logs and finished wakeups are kept this long (BOARDROOM_RUN_RETENTION_DAYS). */
  runRetentionDays: number;
  /** The origin outside callers reach this server at (BOARDROOM_PUBLIC_URL): the base of webhook URLs. */
  publicUrl?: string;
  /** Prices of models whose usage reports carry no cost, cents per million tokens (BOARDROOM_MODEL_PRICES). */
  modelPrices: PriceTable;
  /** Where code-host and catalog skill imports go (BOARDROOM_CODEHOST_*, BOARDROOM_SKILL_CATALOG_URL). */
  codeHost: CodeHostConfig;
  /**
   * `host:port` pairs a plugin's `http.fetch` may reach although they resolve to loopback or private
   * addresses, and over plain http (BOARDROOM_PLUGIN_NET_ALLOW, comma-separated): self-hosted
   * receivers. Absent: none. Never settable by a plugin.
   */
  pluginNetAllow?: readonly string[];
}

export interface CodeHostConfig {
  /** REST API base (BOARDROOM_CODEHOST_API_URL, default https://api.github.com). */
  apiUrl: string;
  /** Raw file base (BOARDROOM_CODEHOST_RAW_URL, default https://raw.githubusercontent.com). */
  rawUrl: string;
  /** Bearer token for the API (BOARDROOM_CODEHOST_TOKEN): higher rate limits, private repositories. */
  token?: string;
  /** The skills catalog site whose URLs and install commands resolve to code-host sources (BOARDROOM_SKILL_CATALOG_URL, default https://skills.sh). */
  catalogUrl: string;
}

export const DEFAULT_CODE_HOST: CodeHostConfig = {
  apiUrl: 'https://api.github.com',
  rawUrl: 'https://raw.githubusercontent.com',
  catalogUrl: 'https://skills.sh',
};

export interface ConfigInput {
  dataDir?: string;
  host?: string;
  port?: number;
  deploymentMode?: string;
}

const DEFAULT_PORT = 3100;
const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const DEFAULT_RUN_LEASE_SEC = 30;
const DEFAULT_RUN_RETENTION_DAYS = 30;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function resolveDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = flag ?? env.BOARDROOM_HOME ?? path.join(os.homedir(), '.boardroom');
  return path.resolve(dir);
}

/** The settings besides the keys. */
export type Settings = Omit<Config, 'masterKey' | 'jwtSecret'>;

/**
 * Flags and environment, checked: reads no file and creates nothing, so `boardroom doctor` can
 * check a data directory without making an instance of it.
 */
export function readSettings(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Settings {
  const dataDir = resolveDataDir(input.dataDir, env);
  const deploymentMode = parseMode(input.deploymentMode ?? env.BOARDROOM_DEPLOYMENT_MODE ?? 'authenticated');
  const host = input.host ?? env.BOARDROOM_HOST ?? '127.0.0.1';
  if (deploymentMode === 'local_trusted' && !isLoopback(host)) {
    throw new Error(`local_trusted mode is allowed only on a loopback bind, not ${host}`);
  }
  const port = input.port ?? (env.BOARDROOM_PORT ? Number(env.BOARDROOM_PORT) : DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${String(port)}`);
  const maxUploadBytes = env.BOARDROOM_MAX_UPLOAD_BYTES
    ? Number(env.BOARDROOM_MAX_UPLOAD_BYTES)
    : DEFAULT_MAX_UPLOAD_BYTES;
  if (!Number.isInteger(maxUploadBytes) || maxUploadBytes <= 0)
    throw new Error(`invalid BOARDROOM_MAX_UPLOAD_BYTES ${env.BOARDROOM_MAX_UPLOAD_BYTES}`);
  const logLevel = env.BOARDROOM_LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new Error(`invalid BOARDROOM_LOG_LEVEL ${logLevel} (${LOG_LEVELS.join(', ')})`);
  const runLeaseSec = intFromEnv(env, 'BOARDROOM_RUN_LEASE_SEC', DEFAULT_RUN_LEASE_SEC, 2, 3600);
  const runRetentionDays = intFromEnv(env, 'BOARDROOM_RUN_RETENTION_DAYS', DEFAULT_RUN_RETENTION_DAYS, 1, 3650);
  return {
    dataDir,
    host,
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    deploymentMode,
    maxUploadBytes,
    logLevel,
    runLeaseSec,
    runRetentionDays,
    publicUrl: parseBaseUrl('BOARDROOM_PUBLIC_URL', env.BOARDROOM_PUBLIC_URL),
    modelPrices: parsePriceTable(env.BOARDROOM_MODEL_PRICES),
    pluginNetAllow: parseNetAllow(env.BOARDROOM_PLUGIN_NET_ALLOW),
    codeHost: {
      apiUrl: parseBaseUrl('BOARDROOM_CODEHOST_API_URL', env.BOARDROOM_CODEHOST_API_URL) ?? DEFAULT_CODE_HOST.apiUrl,
      rawUrl: parseBaseUrl('BOARDROOM_CODEHOST_RAW_URL', env.BOARDROOM_CODEHOST_RAW_URL) ?? DEFAULT_CODE_HOST.rawUrl,
      ...(env.BOARDROOM_CODEHOST_TOKEN ? { token: env.BOARDROOM_CODEHOST_TOKEN } : {}),
      catalogUrl:
        parseBaseUrl('BOARDROOM_SKILL_CATALOG_URL', env.BOARDROOM_SKILL_CATALOG_URL) ?? DEFAULT_CODE_HOST.catalogUrl,
    },
  };
}

const KEY_SOURCES = {
  masterKey: { env: 'BOARDROOM_SECRETS_MASTER_KEY', file: 'master.key' },
  jwtSecret: { env: 'BOARDROOM_JWT_SECRET', file: 'jwt.key' },
} as const;
const keyFile = (dataDir: string, name: keyof typeof KEY_SOURCES) =>
  path.join(dataDir, 'secrets', KEY_SOURCES[name].file);

/** The settings plus the secrets master key and the JWT key (created in the data directory on first use). */
export async function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const settings = readSettings(input, env);
  const keys = await readKeys(settings.dataDir, env);
  return {
    ...settings,
    masterKey: keys.masterKey ?? (await createKey(keyFile(settings.dataDir, 'masterKey'))),
    jwtSecret: keys.jwtSecret ?? (await createKey(keyFile(settings.dataDir, 'jwtSecret'))),
  };
}

/** Each key from the environment (base64) or its file in the data dir; null where neither holds one. Reads only; throws on a malformed key. */
export async function readKeys(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<keyof typeof KEY_SOURCES, Buffer | null>> {
  const read = async (name: keyof typeof KEY_SOURCES) => readKey(env[KEY_SOURCES[name].env], keyFile(dataDir, name));
  return { masterKey: await read('masterKey'), jwtSecret: await read('jwtSecret') };
}

/** BOARDROOM_PLUGIN_NET_ALLOW: comma-separated `host:port` pairs (an IPv6 host in brackets), lowercased. */
export function parseNetAllow(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((entry) => {
    const pair = entry.trim().toLowerCase();
    const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/.exec(pair);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535)
      throw new Error(`invalid BOARDROOM_PLUGIN_NET_ALLOW entry ${JSON.stringify(entry.trim())}: expected host:port`);
    return pair;
  });
}

/** An http(s) origin with an optional path prefix, without a trailing slash. */
function parseBaseUrl(name: string, raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`invalid ${name} ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be http(s): ${raw}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`invalid ${name} ${raw} (an integer from ${min} to ${max})`);
  return value;
}

function parseMode(value: string): DeploymentMode {
  if (value === 'authenticated' || value === 'local_trusted') return value;
  throw new Error(`unknown deployment mode ${value} (authenticated or local_trusted)`);
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A 32-byte key: base64 from the environment, else from its 0600 file in the data dir; null when there is none yet. */
async function readKey(fromEnv: string | undefined, file: string): Promise<Buffer | null> {
  if (fromEnv) {
    const key = Buffer.from(fromEnv, 'base64');
    if (key.length !== 32) throw new Error(`${path.basename(file)} from the environment must be 32 bytes in base64`);
    return key;
  }
  if (!existsSync(file)) return null;
  const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} must hold 32 bytes in base64`);
  return key;
}

async function createKey(file: string): Promise<Buffer> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  await writeFile(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

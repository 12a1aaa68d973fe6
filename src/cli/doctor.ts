// `boardroom doctor`: one line per check, false when any fails; then one `info` line per local
// runtime (claude_local, codex_local, gemini_local, opencode_local) with its default config: informational, since no agent may
// use it, and an agent's own adapterConfig (command, env) can differ; and an `info` line naming the
// sandbox plugin workers get on this machine, why, and their caps (informational too: an instance
// without plugins needs none).
// Doctor only reads: it creates no data directory, key file or database, so a typo in --data-dir
// is reported ("does not exist", "no Boardroom instance") instead of becoming a new instance.
import path from 'node:path';
import pg from 'pg';
import { hasEmbeddedCluster, listenError } from '../db/embedded.ts';
import { readKeys, readSettings, resolveDataDir, type ConfigInput, type Settings } from '../core/config.ts';
import { attachDatabase } from '../server/start.ts';
import { LOCAL_RUNTIME_ADAPTER_MODULES } from '../adapters/registry.ts';
import { DEFAULT_WORKER_LIMITS } from '../modules/plugins/worker/process.ts';
import { describeSandbox } from '../modules/plugins/worker/sandbox.ts';
import {
  checkDatabaseAnswers,
  checkDataDir,
  checkNode,
  doctorMessage as message,
  type Check,
} from '../core/doctor-checks.ts';

const CONNECT_TIMEOUT_MS = 5_000;

export async function runDoctor(input: ConfigInput): Promise<boolean> {
  const dataDir = resolveDataDir(input.dataDir);
  const results: Check[] = [checkNode(), await checkDataDir(dataDir)];
  let settings: Settings | null = null;
  try {
    settings = readSettings(input);
    await readKeys(settings.dataDir);
    results.push([
      'config',
      true,
      `${settings.deploymentMode} mode, ${settings.databaseUrl ? 'external database (DATABASE_URL)' : 'embedded database'}`,
    ]);
  } catch (err) {
    results.push(['config', false, message(err)]);
  }
  results.push(
    settings ? await checkDatabase(settings) : ['database', false, 'not checked: the configuration is invalid'],
  );
  results.push(settings ? await checkPort(settings) : ['port', false, 'not checked: the configuration is invalid']);

  for (const [name, ok, detail] of results) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}\n`);
  for (const module of LOCAL_RUNTIME_ADAPTER_MODULES) {
    const adapter = module.createServerAdapter();
    const env = await adapter.testEnvironment({});
    const detail = env.checks
      .filter((c) => c.name !== 'config' && c.name !== 'cwd')
      .map((c) => `${c.name} ${c.detail}`)
      .join('; ');
    process.stdout.write(`info ${adapter.type}: ${env.ok ? 'ready' : 'not ready'}: ${detail}\n`);
  }
  const plugins = describeSandbox(DEFAULT_WORKER_LIMITS.memoryMb);
  process.stdout.write(`info plugin sandbox: ${plugins.sandbox}: ${plugins.why}; caps: ${plugins.caps.join(', ')}\n`);
  return results.every(([, ok]) => ok);
}

async function checkDatabase(settings: Settings): Promise<Check> {
  const pgDir = path.join(settings.dataDir, 'db');
  // Starting the embedded cluster of a directory that has none would initialise one: an instance.
  if (!settings.databaseUrl && !hasEmbeddedCluster(settings.dataDir)) {
    return [
      'database',
      false,
      `no Boardroom instance at ${settings.dataDir} (no embedded database in ${pgDir}; DATABASE_URL is not set)`,
    ];
  }
  try {
    const handle = await attachDatabase(settings, () => undefined);
    try {
      const client = new pg.Client({ connectionString: handle.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      await client.connect();
      try {
        return await checkDatabaseAnswers((sql) => client.query<{ v: string }>(sql), !!settings.databaseUrl);
      } finally {
        await client.end();
      }
    } finally {
      await handle.embedded?.stop();
    }
  } catch (err) {
    return ['database', false, message(err) || 'cannot connect'];
  }
}

/** A taken port is fine when Boardroom itself holds it; anything else would move or stop `run`. */
async function checkPort(config: Settings): Promise<Check> {
  const where = `${config.host}:${config.port}`;
  const error = await listenError(config.port, config.host);
  if (error === null) return ['port', true, `${where} free`];
  if (error !== 'EADDRINUSE') return ['port', false, `${where} cannot be used (${error})`];
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  try {
    const res = await fetch(`http://${host}:${config.port}/api/health`, {
      signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
    });
    const body = (await res.json()) as { deploymentMode?: unknown };
    if (typeof body.deploymentMode === 'string') return ['port', true, `${where} in use by a running Boardroom server`];
  } catch {
    // Not an HTTP server that answers like Boardroom.
  }
  return [
    'port',
    false,
    `${where} in use by another program (run would take the next free port; --strict-port would fail)`,
  ];
}

// `boardroom doctor`: one line per check, false when any fails; then one `info` line per local
// runtime (claude_local, codex_local, gemini_local, opencode_local) with its default config: informational, since no agent may
// use it, and an agent's own adapterConfig (command, env) can differ.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { listenError } from '../db/embedded.ts';
import { loadConfig, resolveDataDir, type Config, type ConfigInput } from '../server/config.ts';
import { attachDatabase } from '../server/start.ts';
import { LOCAL_RUNTIME_ADAPTER_MODULES } from '../engine/adapters/registry.ts';

const MIN_NODE = [20, 19];
const CONNECT_TIMEOUT_MS = 5_000;

type Check = [name: string, ok: boolean, detail: string];

export async function runDoctor(input: ConfigInput): Promise<boolean> {
  const results: Check[] = [checkNode(), await checkDataDir(resolveDataDir(input.dataDir))];
  let config: Config | null = null;
  try {
    config = await loadConfig(input);
    results.push(['config', true, `${config.deploymentMode} mode, ${config.databaseUrl ? 'external database (DATABASE_URL)' : 'embedded database'}`]);
  } catch (err) {
    results.push(['config', false, message(err)]);
  }
  results.push(config ? await checkDatabase(config) : ['database', false, 'not checked: the configuration is invalid']);
  results.push(config ? await checkPort(config) : ['port', false, 'not checked: the configuration is invalid']);

  for (const [name, ok, detail] of results) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}\n`);
  for (const module of LOCAL_RUNTIME_ADAPTER_MODULES) {
    const adapter = module.createServerAdapter();
    const env = await adapter.testEnvironment({});
    const detail = env.checks.filter((c) => c.name !== 'config' && c.name !== 'cwd').map((c) => `${c.name} ${c.detail}`).join('; ');
    process.stdout.write(`info ${adapter.type}: ${env.ok ? 'ready' : 'not ready'}: ${detail}\n`);
  }
  return results.every(([, ok]) => ok);
}

function checkNode(): Check {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MIN_NODE[0]! || (major === MIN_NODE[0] && minor >= MIN_NODE[1]!);
  return ['node', ok, `v${process.versions.node} (needs ${MIN_NODE.join('.')}+)`];
}

/** Writable means a file can really be created (root passes permission checks that users fail). */
async function checkDataDir(dir: string): Promise<Check> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const probe = path.join(dir, `.doctor-${randomBytes(4).toString('hex')}`);
    await writeFile(probe, '');
    await rm(probe);
    return ['data dir', true, `${dir} (writable)`];
  } catch (err) {
    return ['data dir', false, `${dir}: ${message(err)}`];
  }
}

async function checkDatabase(config: Config): Promise<Check> {
  try {
    const handle = await attachDatabase(config, () => undefined);
    try {
      const client = new pg.Client({ connectionString: handle.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      await client.connect();
      try {
        const { rows } = await client.query<{ v: string }>(`select current_setting('server_version') as v`);
        return ['database', true, `${config.databaseUrl ? 'external' : 'embedded'} PostgreSQL ${rows[0]?.v ?? ''} reachable`];
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
async function checkPort(config: Config): Promise<Check> {
  const where = `${config.host}:${config.port}`;
  const error = await listenError(config.port, config.host);
  if (error === null) return ['port', true, `${where} free`];
  if (error !== 'EADDRINUSE') return ['port', false, `${where} cannot be used (${error})`];
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  try {
    const res = await fetch(`http://${host}:${config.port}/api/health`, { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) });
    const body = (await res.json()) as { deploymentMode?: unknown };
    if (typeof body.deploymentMode === 'string') return ['port', true, `${where} in use by a running Boardroom server`];
  } catch {
    // Not an HTTP server that answers like Boardroom.
  }
  return ['port', false, `${where} in use by another program (run would take the next free port; --strict-port would fail)`];
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

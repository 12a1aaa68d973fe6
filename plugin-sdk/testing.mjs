// boardroom/plugin-sdk/testing: run a plugin against a real Boardroom server from a test (node:test,
// or any runner). The harness installs the plugin from its folder, turns it on for a company of its
// own with the capabilities the manifest asks for, and calls its surfaces over HTTP as the board and
// agents do: tools, data, actions, job triggers, webhooks, health. Nothing is simulated: the worker
// is the server's, sandboxed as in production.
//
// The server is the one named by `server: { url, token }` (or BOARDROOM_TEST_URL and
// BOARDROOM_TEST_TOKEN), else one the harness starts: `boardroom run` on a fresh data directory with
// its embedded database (a few seconds), stopped and removed by `close()`.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/boardroom.js', import.meta.url));
/** Not copied into the installed package: what `npm install` and git leave in a plugin's folder. */
const NOT_SHIPPED = new Set(['node_modules', '.git']);
const START_TIMEOUT_MS = 180_000;

/** A request the server refused: `status` and the JSON `body` it answered (`{ error }`, or a bridge `{ code, message }`). */
export class HarnessError extends Error {
  constructor(method, url, status, body) {
    const said = body?.message ?? body?.error ?? JSON.stringify(body);
    super(`${method} ${url} answered ${status}: ${said}`);
    this.name = 'HarnessError';
    this.status = status;
    this.body = body;
    this.code = typeof body?.code === 'string' ? body.code : null;
  }
}

export async function createTestHarness(options) {
  const pluginDir = path.resolve(options?.pluginDir ?? '.');
  const cleanups = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    const given =
      options?.server ??
      (process.env.BOARDROOM_TEST_URL && process.env.BOARDROOM_TEST_TOKEN
        ? { url: process.env.BOARDROOM_TEST_URL, token: process.env.BOARDROOM_TEST_TOKEN }
        : null);
    const server = given ?? (await startServer(cleanups));
    const api = client(server.url.replace(/\/+$/, ''), server.token);

    const company = await api.request('POST', '/api/companies', {
      name: options?.companyName ?? `Plugin test ${new Date().toISOString()}`,
    });
    const plugin = await install(api, pluginDir, cleanups);
    cleanups.push(() => api.request('DELETE', `/api/plugins/${plugin.id}`));
    await api.request('POST', `/api/companies/${company.id}/plugins/${plugin.id}/enable`, {
      capabilities: plugin.manifest.capabilities,
    });

    let agentId = null;
    const agent = async () =>
      (agentId ??= (
        await api.request('POST', `/api/companies/${company.id}/agents`, {
          name: 'Plugin test agent',
          role: 'engineer',
          adapterType: 'process',
          adapterConfig: {},
        })
      ).id);

    return {
      url: server.url,
      token: server.token,
      /** The data directory of the server the harness started (removed by close()); null for a given server. */
      dataDir: server.dataDir ?? null,
      companyId: company.id,
      pluginId: plugin.id,
      plugin,
      /** Any API call, as the instance owner: the parsed JSON answer, or a HarnessError. */
      request: api.request,
      /** Runs a tool as an agent of the company (one the harness creates unless `runContext.agentId` is given). */
      async tool(name, parameters = {}, runContext = {}) {
        const body = await api.request('POST', '/api/plugins/tools/execute', {
          tool: `${plugin.id}:${name}`,
          parameters,
          runContext: { companyId: company.id, agentId: runContext.agentId ?? (await agent()), ...runContext },
        });
        return body.result;
      },
      async data(key, params = {}) {
        return (await api.request('POST', `/api/plugins/${plugin.id}/data/${key}`, { companyId: company.id, params }))
          .data;
      },
      async action(key, params = {}) {
        return (await api.request('POST', `/api/plugins/${plugin.id}/actions/${key}`, { companyId: company.id, params }))
          .data;
      },
      /** Triggers a declared job now; `{ runId }`. */
      triggerJob(key) {
        return api.request('POST', `/api/plugins/${plugin.id}/jobs/${key}/trigger`, { companyId: company.id });
      },
      /** This company's worker on the server: `{ status, pid, sandbox, health, ... }` (health is the worker's own answer). */
      async health() {
        const list = await api.request('GET', `/api/plugins/${plugin.id}/health`);
        return list.find((entry) => entry.companyId === company.id) ?? null;
      },
      /** Uninstalls the plugin and stops the server the harness started (never one it was given). */
      close: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function client(base, token) {
  return {
    async request(method, url, body) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = { error: text };
      }
      if (!res.ok) throw new HarnessError(method, url, res.status, parsed);
      return parsed;
    },
  };
}

/** Installs a copy of the plugin's folder without node_modules and .git; a plugin of that key installed before is upgraded. */
async function install(api, pluginDir, cleanups) {
  const staging = await mkdtemp(path.join(os.tmpdir(), 'boardroom-plugin-test-'));
  cleanups.push(() => rm(staging, { recursive: true, force: true }));
  const copy = path.join(staging, 'package');
  await cp(pluginDir, copy, {
    recursive: true,
    filter: (source) => !NOT_SHIPPED.has(path.basename(source)) || source === pluginDir,
  });
  const body = { packageName: copy, isLocalPath: true };
  try {
    return await api.request('POST', '/api/plugins/install', body);
  } catch (err) {
    const existing = err instanceof HarnessError && err.status === 409 ? err.body?.details?.pluginId : null;
    if (!existing) throw err;
    return api.request('POST', `/api/plugins/${existing}/upgrade`, body);
  }
}

/** `boardroom run` on a new data directory with its embedded database, and an owner key made for it first. */
async function startServer(cleanups) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-harness-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'BOARDROOM_HOME', 'BOARDROOM_PORT', 'BOARDROOM_HOST', 'BOARDROOM_DEPLOYMENT_MODE'])
    delete env[name];
  const token = (await output(spawn(process.execPath, [BIN, 'board-key', 'create', '--init', '--data-dir', dataDir], { env }))).trim();
  const child = spawn(process.execPath, [BIN, 'run', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  return { url: await listeningUrl(child), token, dataDir };
}

function output(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${child.spawnargs.slice(1).join(' ')} failed (${code}):\n${err}`)),
    );
  });
}

/** The address from the server's "listening on" log line. */
function listeningUrl(child) {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${log}`)), START_TIMEOUT_MS);
    const onData = (chunk) => {
      log += chunk;
      for (const line of log.split('\n')) {
        if (!line.startsWith('{')) continue;
        let entry;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (typeof entry.msg === 'string' && entry.msg.startsWith('listening on') && entry.url) {
          clearTimeout(timer);
          return resolve(entry.url);
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (log += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${log}`));
    });
  });
}

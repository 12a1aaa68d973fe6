// `boardroom doctor`: one line per check, false when any fails.
import { access, constants, mkdir } from 'node:fs/promises';
import pg from 'pg';
import { canListen } from '../db/embedded.ts';
import type { Config } from '../server/config.ts';
import { openDatabase } from '../server/start.ts';

const MIN_NODE_MAJOR = 20;

export async function runDoctor(config: Config): Promise<boolean> {
  const results: Array<[string, boolean, string]> = [];
  const major = Number(process.versions.node.split('.')[0]);
  results.push(['node', major >= MIN_NODE_MAJOR, `v${process.versions.node} (needs ${MIN_NODE_MAJOR}+)`]);

  let dataDirOk = true;
  try {
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    await access(config.dataDir, constants.W_OK);
  } catch {
    dataDirOk = false;
  }
  results.push(['data dir', dataDirOk, config.dataDir]);

  let dbDetail = '';
  let dbOk = false;
  try {
    const handle = await openDatabase(config, { attach: true, log: () => undefined });
    const client = new pg.Client({ connectionString: handle.url });
    await client.connect();
    const { rows } = await client.query<{ v: string }>('show server_version');
    await client.end();
    await handle.embedded?.stop();
    dbOk = true;
    dbDetail = `${config.databaseUrl ? 'external' : 'embedded'} PostgreSQL ${rows[0]?.v ?? ''}`;
  } catch (err) {
    dbDetail = err instanceof Error ? err.message : String(err);
  }
  results.push(['database', dbOk, dbDetail]);

  const portFree = await canListen(config.port, config.host);
  results.push(['port', true, `${config.host}:${config.port} ${portFree ? 'free' : 'in use (a running server, or another program)'}`]);

  for (const [name, ok, detail] of results) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}\n`);
  return results.every(([, ok]) => ok);
}

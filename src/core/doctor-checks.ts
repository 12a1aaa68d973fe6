// The `boardroom doctor` checks that make sense both from the command line and inside a running
// server (GET /api/instance/doctor): Node's version, the data directory, the database's answer.
// One copy, so the CLI and the board report the same thing in the same words.
import { randomBytes } from 'node:crypto';
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Check = [name: string, ok: boolean, detail: string];

const MIN_NODE = [20, 19] as const;

export function checkNode(): Check {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return ['node', ok, `v${process.versions.node} (needs ${MIN_NODE.join('.')}+)`];
}

/**
 * The data directory must already exist: doctor only reads, and a typo in --data-dir must not
 * become a new instance. Writable means a file can really be created in it (root passes permission
 * checks that users fail): a probe file, removed at once.
 */
export async function checkDataDir(dir: string): Promise<Check> {
  const info = await stat(dir).catch((err: NodeJS.ErrnoException) => err);
  if (info instanceof Error) {
    const missing = info.code === 'ENOENT' || info.code === 'ENOTDIR';
    return [
      'data dir',
      false,
      missing
        ? `${dir} does not exist (a typo in --data-dir or BOARDROOM_HOME?); \`boardroom run\` would create it`
        : `${dir}: ${info.message}`,
    ];
  }
  if (!info.isDirectory()) return ['data dir', false, `${dir} is not a directory`];
  try {
    const probe = path.join(dir, `.doctor-${randomBytes(4).toString('hex')}`);
    await writeFile(probe, '');
    await rm(probe);
    return ['data dir', true, `${dir} (writable)`];
  } catch (err) {
    return ['data dir', false, `${dir}: ${doctorMessage(err)}`];
  }
}

/** The database answers a query: its server version, from whichever client the caller holds. */
export async function checkDatabaseAnswers(
  query: (sql: string) => Promise<{ rows: { v: string }[] }>,
  external: boolean,
): Promise<Check> {
  try {
    const { rows } = await query(`select current_setting('server_version') as v`);
    return ['database', true, `${external ? 'external' : 'embedded'} PostgreSQL ${rows[0]?.v ?? ''} reachable`];
  } catch (err) {
    return ['database', false, doctorMessage(err) || 'cannot connect'];
  }
}

export const doctorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

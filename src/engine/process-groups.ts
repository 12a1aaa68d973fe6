// Killing what a reaped run left running on this machine. A run's process group is known by its
// pid (pid == pgid), but a pid alone may have been reused since: a process is killed only when its
// environment carries the run's SERVICE_RUN_ID, which no unrelated process has.
import { readdir, readFile } from 'node:fs/promises';

async function belongsToRun(pid: string, pgid: number, runId: string): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the parenthesised name: state ppid pgrp ...
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[2] !== String(pgid) || fields[0] === 'Z') return false;
  const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  return environ.split('\0').includes(`SERVICE_RUN_ID=${runId}`);
}

/** SIGKILLs every live member of the run's process group on this machine; returns how many. */
export async function killRunProcessGroup(pgid: number, runId: string): Promise<number> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  let killed = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || !(await belongsToRun(entry, pgid, runId))) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
      killed++;
    } catch {
      // Gone in the meantime.
    }
  }
  return killed;
}

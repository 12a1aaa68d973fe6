// Killing what a reaped run (or a runtime service of a previous boot) left running on this machine.
// A process group is known by its leader's pid (pid == pgid), but a pid alone may have been reused
// since: a process is killed only when its environment carries the marker the engine gave it
// (SERVICE_RUN_ID=<run id>, BOARDROOM_RUNTIME_SERVICE=<workspace id>), which no unrelated process has.
import { readdir, readFile } from 'node:fs/promises';

async function belongsToGroup(pid: string, pgid: number, marker: string): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the parenthesised name: state ppid pgrp ...
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[2] !== String(pgid) || fields[0] === 'Z') return false;
  const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  return environ.split('\0').includes(marker);
}

/** SIGKILLs every live member of the run's process group on this machine; returns how many. */
export function killRunProcessGroup(pgid: number, runId: string): Promise<number> {
  return killMarkedProcessGroup(pgid, `SERVICE_RUN_ID=${runId}`);
}

/** SIGKILLs every live member of group `pgid` whose environment holds `marker` (NAME=value). */
export async function killMarkedProcessGroup(pgid: number, marker: string): Promise<number> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  let killed = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || !(await belongsToGroup(entry, pgid, marker))) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
      killed++;
    } catch {
      // Gone in the meantime.
    }
  }
  return killed;
}

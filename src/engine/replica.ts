// Who this replica is. The replica id is stable across restarts (a file in the data directory),
// the boot id is new for every start: runs record both, so a restarted replica recognises the runs
// of its previous life and reaps them at once instead of waiting for their leases to lapse.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ReplicaIdentity {
  replica: string;
  boot: string;
}

export async function replicaIdentity(dataDir: string): Promise<ReplicaIdentity> {
  const file = path.join(dataDir, 'replica-id');
  let replica = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (!/^[0-9a-f-]{36}$/.test(replica)) {
    replica = randomUUID();
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${replica}\n`, { mode: 0o600 });
  }
  return { replica, boot: randomUUID() };
}

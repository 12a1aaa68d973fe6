// Debian packages the test suite provisions itself (Chromium, bubblewrap): installed with apt-get
// where that is possible (root, apt-get present).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const canAptInstall = (): boolean => process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');

/** `apt-get update`, then installs `pkg` without recommends: null when done, else what failed. */
export function aptInstall(pkg: string): string | null {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', pkg],
  ]) {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) return `apt-get ${args.join(' ')} failed (status ${result.status})`;
  }
  return null;
}

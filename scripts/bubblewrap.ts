// The plugin workers' sandbox (docs/plugins.md, "Worker runtime"): Debian's bubblewrap, installed
// before the suite when missing, as Chromium is. Unlike Chromium it is not required: without it the
// worker tests run the confinements that remain (an unprivileged user as root, plain otherwise), and
// a line says so.
import { spawnSync } from 'node:child_process';
import { aptInstall, canAptInstall } from './apt.ts';

const hasBwrap = () => spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0;

export function ensureBubblewrap(): void {
  if (hasBwrap()) return;
  const skip = 'plugin worker tests run without the bubblewrap sandbox';
  if (!canAptInstall()) {
    console.log(`# bubblewrap (bwrap) is not installed: ${skip} (install it with \`apt-get install -y bubblewrap\`)`);
    return;
  }
  console.log('installing bubblewrap for the plugin worker sandbox: apt-get install -y bubblewrap');
  const failed = aptInstall('bubblewrap');
  if (failed || !hasBwrap()) console.log(`# ${failed ?? 'bwrap still missing after the install'}: ${skip}`);
}

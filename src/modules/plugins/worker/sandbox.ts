// How a plugin worker is launched: node by absolute path with an empty environment (only the
// allowlist below), in the strongest confinement this machine offers:
// - `bwrap` (bubblewrap): no network, no other process, the plugin folder read-only at /plugin,
//   node's binary and the system libraries read-only, a small tmpfs for /tmp and HOME, nothing
//   else of the filesystem: the data directory, its keys and the server's /proc do not exist there;
// - `unprivileged-user`: when bubblewrap is missing or cannot start and the server runs as root,
//   as `nobody` with a read-only copy of the plugin folder (the data directory is the server's);
// - `none`: otherwise, a plain child process (the environment is still empty).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';

export type SandboxKind = 'bwrap' | 'unprivileged-user' | 'none';

/** The only environment variables a worker gets. */
// (PWD is bubblewrap's, set by its --chdir; outside it the same folder is given so the two look alike.)
export const WORKER_ENV_KEYS = ['HOME', 'PWD', 'TMPDIR'] as const;

/** `nobody` on Debian and most distributions. */
const NOBODY = 65534;
const SANDBOX_PLUGIN_DIR = '/plugin';
const SANDBOX_TMP = '/tmp';
/** Where the plugin's mounted local folders appear inside bubblewrap (src/modules/plugins/folders.ts). */
const SANDBOX_FOLDERS_DIR = '/folders';

export interface LaunchSpec {
  /** The plugin's folder (read-only to the worker) and its worker entry, relative to it. */
  pluginDir: string;
  entry: string;
  /** V8's heap cap. */
  memoryMb: number;
  /** The tmpfs size under bubblewrap. */
  tmpMb: number;
  /** The worker's HOME and TMPDIR outside bubblewrap (a scratch folder of the host's). */
  home: string;
  /** The local folders mounted for the worker's company: key → server path, read-only to it. */
  folders: Map<string, string>;
}

export interface LaunchPlan {
  sandbox: SandboxKind;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  uid?: number;
  gid?: number;
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

const nodeBinary = () => realpathSync(process.execPath);

/** Read-only binds of node and the system libraries it loads (merged-/usr layouts have /lib as a link). */
function systemBinds(): string[] {
  const binds = ['--ro-bind', '/usr', '/usr'];
  for (const dir of ['/lib', '/lib64', '/lib32']) binds.push('--ro-bind-try', dir, dir);
  const node = nodeBinary();
  if (!node.startsWith('/usr/')) binds.push('--ro-bind', node, node);
  return binds;
}

function bwrapArgs(spec: LaunchSpec, node: string): string[] {
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    ...systemBinds(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(spec.tmpMb * 1024 * 1024),
    '--tmpfs',
    SANDBOX_TMP,
    '--ro-bind',
    spec.pluginDir,
    SANDBOX_PLUGIN_DIR,
    ...[...spec.folders].flatMap(([key, dir]) => ['--ro-bind-try', dir, workerFolderPath('bwrap', key, dir)]),
    '--chdir',
    SANDBOX_PLUGIN_DIR,
    '--setenv',
    'HOME',
    SANDBOX_TMP,
    '--setenv',
    'TMPDIR',
    SANDBOX_TMP,
    node,
    ...nodeArgs(spec, path.posix.join(SANDBOX_PLUGIN_DIR, spec.entry)),
  ];
}

const nodeArgs = (spec: LaunchSpec, entry: string) => [`--max-old-space-size=${spec.memoryMb}`, entry];

let bwrapProbe: string | null | undefined;

/** bubblewrap's path when it is installed and can start a sandbox here (user namespaces allowed); probed once. */
export function usableBwrap(): string | null {
  if (bwrapProbe !== undefined) return bwrapProbe;
  const bwrap = onPath('bwrap');
  bwrapProbe = null;
  if (bwrap) {
    const probe = spawnSync(bwrap, ['--unshare-all', '--die-with-parent', ...systemBinds(), nodeBinary(), '-e', ''], {
      env: {},
      stdio: 'ignore',
      timeout: 10_000,
    });
    if (probe.status === 0) bwrapProbe = bwrap;
  }
  return bwrapProbe;
}

/** The confinement this replica gives workers when nothing is forced. */
export function availableSandbox(): SandboxKind {
  if (usableBwrap()) return 'bwrap';
  return process.getuid?.() === 0 ? 'unprivileged-user' : 'none';
}

/**
 * The command for one worker. `kind` must be available (availableSandbox(), or a weaker one);
 * for `unprivileged-user`, `spec.pluginDir` must be a copy readable by `nobody` (the host makes it).
 */
export function planLaunch(spec: LaunchSpec, kind: SandboxKind): LaunchPlan {
  const node = nodeBinary();
  if (kind === 'bwrap') {
    const bwrap = usableBwrap();
    if (!bwrap) throw new Error('bubblewrap is not usable on this machine');
    return { sandbox: kind, command: bwrap, args: bwrapArgs(spec, node), cwd: spec.home, env: {} };
  }
  const plan: LaunchPlan = {
    sandbox: kind,
    command: node,
    args: nodeArgs(spec, path.join(spec.pluginDir, spec.entry)),
    cwd: spec.pluginDir,
    env: { HOME: spec.home, PWD: spec.pluginDir, TMPDIR: spec.home },
  };
  if (kind === 'unprivileged-user') Object.assign(plan, { uid: NOBODY, gid: NOBODY });
  return plan;
}

export const UNPRIVILEGED_ID = NOBODY;

/**
 * Where the worker finds a mounted folder: under bubblewrap at /folders/<key>, bound read-only;
 * elsewhere at its server path, which the worker's user reads as the system lets it.
 */
export function workerFolderPath(kind: SandboxKind, key: string, serverPath: string): string {
  return kind === 'bwrap' ? path.posix.join(SANDBOX_FOLDERS_DIR, key) : serverPath;
}

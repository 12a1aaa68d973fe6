// How a plugin worker is launched: node by absolute path with an empty environment (only the
// allowlist below), in the strongest confinement this machine offers:
// - `bwrap` (bubblewrap): no network, no other process, the plugin folder read-only at /plugin,
//   node's binary and the system libraries read-only, a small tmpfs for /tmp and HOME, nothing
//   else of the filesystem: the data directory, its keys and the server's /proc do not exist there;
//   when the server is root, bubblewrap itself runs as the worker's own user id (below);
// - `unprivileged-user`: when bubblewrap is missing or cannot start and the server runs as root,
//   as a user id of its own with a read-only copy of the plugin folder (the data directory is the
//   server's);
// - `none`: otherwise, a plain child process (the environment is still empty).
// Whatever the confinement, the worker runs under caps (docs/plugins.md, "Containment"): `prlimit`
// sets its CPU seconds (RLIMIT_CPU: SIGXCPU, then SIGKILL), no core dumps and, when it has a user
// id of its own, its process count (RLIMIT_NPROC, counted per user: so the id is the worker's alone,
// never a shared `nobody`); `nice` lowers its priority, so a busy worker yields to the API.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import path from 'node:path';

export type SandboxKind = 'bwrap' | 'unprivileged-user' | 'none';

/** The only environment variables a worker gets. */
// (PWD is bubblewrap's, set by its --chdir; outside it the same folder is given so the two look alike.)
export const WORKER_ENV_KEYS = ['HOME', 'PWD', 'TMPDIR'] as const;

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
  /** The worker's own user id (workerUid()) when the server is root; the plugin folder must be readable by it. */
  uid?: number;
  /** CPU seconds each of its processes may use (RLIMIT_CPU); past them it is killed. */
  cpuSeconds?: number;
  /** Processes and threads it may have at once (RLIMIT_NPROC), applied only with a `uid` of its own. */
  maxProcesses?: number;
  /** Its scheduling niceness (0..19): higher yields more to the server. */
  nice?: number;
}

export const DEFAULT_CAPS = { cpuSeconds: 300, maxProcesses: 64, nice: 10 } as const;

/** RLIMIT_CPU's hard limit lies this far above the soft one: SIGXCPU first (a reason in the exit), SIGKILL if ignored. */
const CPU_KILL_GRACE_S = 2;

export interface LaunchPlan {
  sandbox: SandboxKind;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  uid?: number;
  gid?: number;
  /** The niceness to give the worker's scheduling group (autogroup) once it runs; null when not lowered. */
  nice: number | null;
  /** The caps applied, in words (doctor, logs). */
  caps: string[];
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
const isRoot = () => process.getuid?.() === 0;

/** Read-only binds of node and the system libraries it loads (merged-/usr layouts have /lib as a link). */
function systemBinds(): string[] {
  const binds = ['--ro-bind', '/usr', '/usr'];
  for (const dir of ['/lib', '/lib64', '/lib32']) binds.push('--ro-bind-try', dir, dir);
  const node = nodeBinary();
  if (!node.startsWith('/usr/')) binds.push('--ro-bind', node, node);
  return binds;
}

// No `--new-session`: the worker is spawned detached (a session of its own, without a terminal to
// write to), and staying in that session keeps it in the scheduling group whose niceness the host
// lowers (setAutogroupNice).
function bwrapArgs(spec: LaunchSpec, node: string): string[] {
  return [
    '--unshare-all',
    '--die-with-parent',
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

// Workers' own user ids: far above any account's, picked at random so that two replicas on one
// machine (each its own process) do not hand out the same one.
const WORKER_UID_MIN = 1_000_000_000;
const WORKER_UID_MAX = 2_000_000_000;

/** A user id for one worker, when the server is root (null otherwise): no other process runs under it. */
export function workerUid(): number | null {
  if (!isRoot()) return null;
  for (;;) {
    const uid = randomInt(WORKER_UID_MIN, WORKER_UID_MAX);
    if (processesOf(uid).length === 0) return uid;
  }
}

/** The processes whose real user id is `uid` (Linux /proc). */
export function processesOf(uid: number): number[] {
  const pids: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const line = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      if (line && Number(line[1]) === uid) pids.push(Number(name));
    } catch {}
  }
  return pids;
}

/**
 * Ends every process left under a worker's own user id (what it forked, even into sessions of its
 * own): it never outlives its worker. The id is the worker's alone, so nothing else is touched.
 */
export function killProcessesOf(uid: number): void {
  if (uid < WORKER_UID_MIN) return;
  // A few passes: a process may fork between the listing and its kill (a fork bomb does).
  for (let pass = 0; pass < KILL_PASSES; pass++) {
    const pids = processesOf(uid);
    if (pids.length === 0) return;
    for (const pid of pids)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
  }
}
const KILL_PASSES = 5;

/**
 * Lowers the niceness of the worker's scheduling group. With the kernel's autogroups (the default
 * on desktops and many servers), a process in a session of its own competes as a group with the
 * server's session whatever its own niceness: the group's niceness is what yields. Best effort:
 * kernels without autogroups have no such file, and the process's own niceness applies there.
 */
export function setAutogroupNice(pid: number, nice: number): void {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {}
}

interface Bwrap {
  path: string;
  /** Whether it starts as a user id other than root's (user namespaces allowed to any user): then each worker gets its own. */
  asWorkerUid: boolean;
}

let bwrapProbe: Bwrap | null | undefined;

function probeBwrap(bwrap: string, uid?: number): boolean {
  const probe = spawnSync(bwrap, ['--unshare-all', '--die-with-parent', ...systemBinds(), nodeBinary(), '-e', ''], {
    env: {},
    stdio: 'ignore',
    timeout: 10_000,
    cwd: '/',
    uid,
    gid: uid,
  });
  return probe.status === 0;
}

/** bubblewrap when it is installed and can start a sandbox here (user namespaces allowed); probed once. */
function bubblewrap(): Bwrap | null {
  if (bwrapProbe !== undefined) return bwrapProbe;
  const bwrap = onPath('bwrap');
  bwrapProbe = null;
  if (bwrap) {
    if (isRoot() && probeBwrap(bwrap, WORKER_UID_MIN)) bwrapProbe = { path: bwrap, asWorkerUid: true };
    else if (probeBwrap(bwrap)) bwrapProbe = { path: bwrap, asWorkerUid: false };
  }
  return bwrapProbe;
}

/** bubblewrap's path when it is installed and can start a sandbox here; probed once. */
export const usableBwrap = (): string | null => bubblewrap()?.path ?? null;

/** The confinement this replica gives workers when nothing is forced. */
export function availableSandbox(): SandboxKind {
  if (usableBwrap()) return 'bwrap';
  return isRoot() ? 'unprivileged-user' : 'none';
}

/** Whether workers in `kind` get a user id of their own (workerUid()), with a plugin folder that id can read. */
export const runsAsWorkerUid = (kind: SandboxKind): boolean =>
  isRoot() && (kind === 'unprivileged-user' || (kind === 'bwrap' && bubblewrap()?.asWorkerUid === true));

/** `prlimit` and `nice` in front of the command: the caps, and what they are in words. */
function capped(
  spec: LaunchSpec,
  command: string,
  args: string[],
): { command: string; args: string[]; caps: string[] } {
  const cpuSeconds = spec.cpuSeconds ?? DEFAULT_CAPS.cpuSeconds;
  const maxProcesses = spec.maxProcesses ?? DEFAULT_CAPS.maxProcesses;
  const nice = spec.nice ?? DEFAULT_CAPS.nice;
  const caps = [`heap ${spec.memoryMb} MiB`];
  const prlimit = onPath('prlimit');
  const niceBin = onPath('nice');
  if (niceBin && nice > 0) {
    args = ['-n', String(nice), command, ...args];
    command = niceBin;
    caps.push(`nice ${nice}`);
  }
  if (prlimit) {
    const limits = [`--cpu=${cpuSeconds}:${cpuSeconds + CPU_KILL_GRACE_S}`, '--core=0'];
    caps.push(`${cpuSeconds} CPU seconds per process`);
    // RLIMIT_NPROC counts every process of the user: only a user id of the worker's own can carry it.
    if (spec.uid !== undefined) {
      limits.push(`--nproc=${maxProcesses}`);
      caps.push(`${maxProcesses} processes and threads`);
    }
    args = [...limits, '--', command, ...args];
    command = prlimit;
  }
  return { command, args, caps };
}

/**
 * The command for one worker. `kind` must be available (availableSandbox(), or a weaker one); when
 * runsAsWorkerUid(kind), `spec.uid` must be a workerUid() and `spec.pluginDir` readable by it (the host
 * makes a copy).
 */
export function planLaunch(spec: LaunchSpec, kind: SandboxKind): LaunchPlan {
  const node = nodeBinary();
  const nice = spec.nice ?? DEFAULT_CAPS.nice;
  const ids = spec.uid !== undefined && runsAsWorkerUid(kind) ? { uid: spec.uid, gid: spec.uid } : {};
  const uidSpec = { ...spec, uid: ids.uid };
  if (kind === 'bwrap') {
    const bwrap = usableBwrap();
    if (!bwrap) throw new Error('bubblewrap is not usable on this machine');
    return {
      sandbox: kind,
      ...capped(uidSpec, bwrap, bwrapArgs(spec, node)),
      cwd: spec.home,
      env: {},
      ...ids,
      nice: nice > 0 ? nice : null,
    };
  }
  return {
    sandbox: kind,
    ...capped(uidSpec, node, nodeArgs(spec, path.join(spec.pluginDir, spec.entry))),
    cwd: spec.pluginDir,
    env: { HOME: spec.home, PWD: spec.pluginDir, TMPDIR: spec.home },
    ...ids,
    nice: nice > 0 ? nice : null,
  };
}

/**
 * Where the worker finds a mounted folder: under bubblewrap at /folders/<key>, bound read-only;
 * elsewhere at its server path, which the worker's user reads as the system lets it.
 */
export function workerFolderPath(kind: SandboxKind, key: string, serverPath: string): string {
  return kind === 'bwrap' ? path.posix.join(SANDBOX_FOLDERS_DIR, key) : serverPath;
}

/** What `boardroom doctor` says of plugin workers on this machine: the sandbox they get, why, and their caps. */
export function describeSandbox(memoryMb: number): { sandbox: SandboxKind; why: string; caps: string[] } {
  const kind = availableSandbox();
  const bwrap = bubblewrap();
  const installed = onPath('bwrap') !== null;
  const why =
    kind === 'bwrap'
      ? `bubblewrap (${bwrap?.path}) starts a sandbox here${bwrap?.asWorkerUid ? ', as a user id of each worker’s own' : ''}`
      : kind === 'unprivileged-user'
        ? `${installed ? 'bubblewrap is installed but cannot start a sandbox here (user namespaces refused?)' : 'bubblewrap is not installed (apt-get install bubblewrap)'}; the server is root, so each worker runs as a user id of its own`
        : `${installed ? 'bubblewrap cannot start a sandbox here' : 'bubblewrap is not installed (apt-get install bubblewrap)'} and the server is not root: workers run as the server’s user and could read its files`;
  const uid = runsAsWorkerUid(kind) ? WORKER_UID_MIN : undefined;
  const { caps } = capped({ pluginDir: '', entry: '', home: '', memoryMb, tmpMb: 0, uid, folders: new Map() }, '', []);
  return { sandbox: kind, why, caps };
}

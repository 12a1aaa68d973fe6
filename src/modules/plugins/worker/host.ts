// The replica's plugin workers: one supervised WorkerProcess per (plugin, company), started when a
// call first needs it. A worker that exits unasked (crash, kill for misbehaving, a failed health
// ping) is restarted after a backoff that doubles from `backoffMs` to `maxBackoffMs`; `maxCrashes`
// crashes within `crashWindowMs` mark it `error` with the last error, until the plugin is stopped
// (disable, uninstall) or the replica restarts. A worker with no call for `idleMs` is stopped.
// Workers run only for a plugin `ready` on the instance and `enabled` by the company: a plugin never
// sees a company that did not turn it on.
import { chmod, chown, cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { AgentActor, BoardActor } from '../../../core/actor.ts';
import type { DbOrTx } from '../../../db/client.ts';
import type { Notifications } from '../../../db/notifications.ts';
import { pluginCompanyEnablements, plugins } from '../../../db/schema/index.ts';
import { mountedFolders } from '../folders.ts';
import { materialisePlugin, pluginCacheDir } from '../store.ts';
import { BridgeError } from './errors.ts';
import { type LogLine, LogRing } from './lines.ts';
import { DEFAULT_WORKER_LIMITS, MethodNotFound, type StopStage, type WorkerLimits, WorkerProcess } from './process.ts';
import {
  availableSandbox,
  planLaunch,
  runsAsWorkerUid,
  type SandboxKind,
  workerFolderPath,
  workerUid,
} from './sandbox.ts';

export interface SupervisionLimits {
  backoffMs: number;
  maxBackoffMs: number;
  maxCrashes: number;
  crashWindowMs: number;
  idleMs: number;
  /** How often a running worker is sent `health`; no answer in `healthMs` counts as a crash. */
  healthIntervalMs: number;
  /** Log lines kept per worker (stderr and `log` calls). */
  logLines: number;
}

export const DEFAULT_SUPERVISION: SupervisionLimits = {
  backoffMs: 1_000,
  maxBackoffMs: 5 * 60_000,
  maxCrashes: 5,
  crashWindowMs: 10 * 60_000,
  idleMs: 10 * 60_000,
  healthIntervalMs: 30_000,
  logLines: 500,
};

export type WorkerStatus = 'starting' | 'running' | 'backoff' | 'stopped' | 'error';

export interface WorkerState {
  companyId: string;
  status: WorkerStatus;
  pid: number | null;
  uptimeMs: number | null;
  restarts: number;
  sandbox: SandboxKind;
  lastError: string | null;
}

/** What the host asks a worker to handle (`invoke`'s `kind`). */
export type InvocationKind =
  | 'event'
  | 'job'
  | 'webhook'
  | 'tool'
  | 'data'
  | 'action'
  | 'validateConfig'
  | 'configChanged';

/** One `invoke` of a worker: a surface's handler, run for one company on behalf of whoever caused it. */
export interface Invocation {
  kind: InvocationKind;
  /** The declared key (job, webhook, data, action key; tool name; event action); null for config calls. */
  key: string | null;
  input: unknown;
  /**
   * Who caused it: the board user for UI calls, the agent (with its run) for tools, null for the
   * plugin's own work (jobs, events, webhooks). A host call made for this invocation may do only what
   * both the company's grant and this actor may.
   */
  cause: BoardActor | AgentActor | null;
  /** Handed to the worker as idempotency keys and context: `runId`, `issueId`, `jobRunId`, `attempt`, `deliveryId`. */
  context?: Record<string, string | number | null>;
  /** The deadline; default the worker limit's `invokeMs` (30 s). */
  timeoutMs?: number;
}

/** An invocation in flight on a worker: what a host call names (`invocationId`) to act within it. */
export interface LiveInvocation extends Invocation {
  id: string;
  pluginId: string;
  companyId: string;
  deadlineAt: number;
}

/** Where a worker's call to the host happens: its plugin and company (the host's, never the worker's word). */
export interface HostCallScope {
  db: DbOrTx;
  pluginId: string;
  companyId: string;
  /** The invocation the call names by `invocationId`, while it is in flight; null when it names none or a finished one. */
  invocation: LiveInvocation | null;
}

/** The host API: the typed calls of issue 27 section 3 (capabilities, state, http.fetch, stream.emit). */
export type HostApi = (scope: HostCallScope, method: string, params: unknown) => Promise<unknown>;

export interface PluginWorkersOptions {
  db: DbOrTx;
  dataDir: string;
  limits?: Partial<WorkerLimits>;
  supervision?: Partial<SupervisionLimits>;
  /** Forces a confinement (tests); default the strongest available. */
  sandbox?: SandboxKind;
  /** Answers worker-to-host calls other than `log`; without one they are "method not found". */
  hostApi?: HostApi;
  /**
   * The replica's LISTEN connection: stops announced by any replica (src/modules/plugins/change.ts)
   * stop this replica's workers too. After a reconnect every live worker is checked again, since
   * announcements made meanwhile were not heard.
   */
  notifications?: Notifications;
}

interface Slot {
  pluginId: string;
  companyId: string;
  status: WorkerStatus;
  worker: WorkerProcess | null;
  starting: Promise<WorkerProcess> | null;
  restarts: number;
  crashes: number[];
  lastError: string | null;
  logs: LogRing;
  restartTimer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
  healthTimer: NodeJS.Timeout | null;
  /** Bumped by every stop: a start or restart begun before it does not resurrect the worker. */
  generation: number;
  invocations: Map<string, LiveInvocation>;
  /** The plugin's revision when the worker last started (plugins/change.ts). */
  revision: number;
  /** A change announced while the worker was starting: a worker started below this revision is stopped. */
  stopBelow: number;
}

const LOG_LEVELS = new Set(['debug', 'info', 'warn', 'error']);

export class PluginWorkers {
  readonly sandbox: SandboxKind;
  private readonly limits: WorkerLimits;
  private readonly supervision: SupervisionLimits;
  private readonly slots = new Map<string, Slot>();
  /** Stops in progress of workers no longer in `slots`, by slot key. */
  private readonly stopping = new Map<string, Promise<StopStage | null>>();
  private closed = false;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly opts: PluginWorkersOptions) {
    this.limits = { ...DEFAULT_WORKER_LIMITS, ...opts.limits };
    this.supervision = { ...DEFAULT_SUPERVISION, ...opts.supervision };
    this.sandbox = opts.sandbox ?? availableSandbox();
    const notifications = opts.notifications;
    if (notifications)
      this.unsubscribe.push(
        notifications.on('pluginChange', ({ pluginId, companyId, revision }) => {
          const concerned = [...this.slots.values()].filter(
            (slot) => slot.pluginId === pluginId && (companyId === null || slot.companyId === companyId),
          );
          for (const slot of concerned) {
            // A start in progress may have read the plugin before or after the change: it checks when done.
            if (slot.status === 'starting')
              slot.stopBelow = Math.max(slot.stopBelow, revision ?? Number.MAX_SAFE_INTEGER);
            else if (revision === null || slot.revision < revision) void this.stopWorker(slot.pluginId, slot.companyId);
          }
          // No revision: the plugin was uninstalled. Its files go from this replica's cache too, once its workers are gone.
          if (revision === null)
            void this.stopPlugin(pluginId).then(() =>
              rm(pluginCacheDir(this.opts.dataDir, pluginId), { recursive: true, force: true }).catch(() => undefined),
            );
        }),
        notifications.onReconnect(() => void this.stopUnrunnable()),
      );
  }

  /** A call to the (plugin, company) worker, started when needed; fails with a BridgeError. */
  async call(pluginId: string, companyId: string, method: string, params: unknown, timeoutMs?: number) {
    const slot = this.slot(pluginId, companyId);
    const worker = await this.ensure(slot);
    this.touch(slot);
    try {
      return await worker.call(method, params, timeoutMs);
    } finally {
      this.touch(slot);
    }
  }

  /**
   * Runs a surface's handler in the (plugin, company) worker: `invoke` with `{ invocationId, kind, key,
   * input, context }`, where context holds the company, the plugin, who caused it (`actor`), the deadline
   * and the invocation's own keys. Host calls the worker makes meanwhile name the invocationId and act
   * within it. Fails with a BridgeError.
   */
  async invoke(pluginId: string, companyId: string, invocation: Invocation): Promise<unknown> {
    const slot = this.slot(pluginId, companyId);
    const timeoutMs = invocation.timeoutMs ?? this.limits.invokeMs;
    const live: LiveInvocation = {
      ...invocation,
      id: randomUUID(),
      pluginId,
      companyId,
      deadlineAt: Date.now() + timeoutMs,
    };
    const cause = invocation.cause ? actorStampOf(invocation.cause) : { type: 'plugin', id: pluginId };
    slot.invocations.set(live.id, live);
    try {
      return await this.call(
        pluginId,
        companyId,
        'invoke',
        {
          invocationId: live.id,
          kind: live.kind,
          key: live.key,
          input: live.input,
          context: {
            ...live.context,
            pluginId,
            companyId,
            actor: cause,
            deadlineAt: new Date(live.deadlineAt).toISOString(),
          },
        },
        timeoutMs,
      );
    } finally {
      slot.invocations.delete(live.id);
    }
  }

  /** The state of each worker of the plugin on this replica, by company. */
  states(pluginId: string): WorkerState[] {
    return [...this.slots.values()].filter((s) => s.pluginId === pluginId).map((s) => this.stateOf(s));
  }

  state(pluginId: string, companyId: string): WorkerState | null {
    const slot = this.slots.get(slotKey(pluginId, companyId));
    return slot ? this.stateOf(slot) : null;
  }

  /** The worker's own `health` answer when it is running, else null (a failure is recorded, not thrown). */
  async workerHealth(pluginId: string, companyId: string): Promise<unknown> {
    const worker = this.slots.get(slotKey(pluginId, companyId))?.worker;
    if (!worker?.running) return null;
    return worker.call('health', {}, this.limits.healthMs).catch(() => null);
  }

  /** Recent log lines of the plugin's workers, oldest first (each with its company). */
  logs(pluginId: string): (LogLine & { companyId: string })[] {
    return [...this.slots.values()]
      .filter((s) => s.pluginId === pluginId)
      .flatMap((s) => s.logs.list().map((line) => ({ ...line, companyId: s.companyId })))
      .sort((a, b) => a.at.localeCompare(b.at));
  }

  /** Stops the (plugin, company) worker in stages and forgets its state; the stage that ended it, if one ran. */
  async stopWorker(pluginId: string, companyId: string): Promise<StopStage | null> {
    const key = slotKey(pluginId, companyId);
    const slot = this.slots.get(key);
    // Already stopping (a replica's announcement and the route's own stop both ask): the same stop.
    if (!slot) return this.stopping.get(key) ?? null;
    this.slots.delete(key);
    const stop = this.halt(slot, 'stopped').finally(() => {
      if (this.stopping.get(key) === stop) this.stopping.delete(key);
    });
    this.stopping.set(key, stop);
    return stop;
  }

  /** Stops every worker of the plugin (instance disable, uninstall, upgrade), including those already stopping. */
  async stopPlugin(pluginId: string): Promise<void> {
    const companies = new Set(
      [...this.slots.values(), ...[...this.stopping.keys()].map(slotOfKey)]
        .filter((s) => s.pluginId === pluginId)
        .map((s) => s.companyId),
    );
    await Promise.all([...companies].map((companyId) => this.stopWorker(pluginId, companyId)));
  }

  /**
   * Stops the workers whose plugin may no longer run for their company, or changed since they started:
   * the stops announced while this replica was not listening.
   */
  async stopUnrunnable(): Promise<void> {
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        const stale = await this.runnableEntry(slot).then(
          ({ revision }) => revision > slot.revision,
          (err: unknown) => err instanceof BridgeError,
        );
        if (stale) await this.stopWorker(slot.pluginId, slot.companyId);
      }),
    );
  }

  /** Stops every worker; no new one starts afterwards (server shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.unsubscribe.splice(0)) stop();
    await Promise.all([
      ...[...this.slots.values()].map((s) => this.stopWorker(s.pluginId, s.companyId)),
      ...this.stopping.values(),
    ]);
  }

  private slot(pluginId: string, companyId: string): Slot {
    const key = slotKey(pluginId, companyId);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {
        pluginId,
        companyId,
        status: 'stopped',
        worker: null,
        starting: null,
        restarts: 0,
        crashes: [],
        lastError: null,
        logs: new LogRing(this.supervision.logLines),
        restartTimer: null,
        idleTimer: null,
        healthTimer: null,
        generation: 0,
        invocations: new Map(),
        revision: -1,
        stopBelow: -1,
      };
      this.slots.set(key, slot);
    }
    return slot;
  }

  private stateOf(slot: Slot): WorkerState {
    const running = slot.worker?.running ? slot.worker : null;
    return {
      companyId: slot.companyId,
      status: slot.status,
      pid: running?.pid ?? null,
      uptimeMs: running ? Date.now() - running.startedAt : null,
      restarts: slot.restarts,
      sandbox: this.sandbox,
      lastError: slot.lastError,
    };
  }

  private async ensure(slot: Slot): Promise<WorkerProcess> {
    if (this.closed) throw new BridgeError('WORKER_UNAVAILABLE', 'the server is shutting down');
    if (slot.status === 'running' && slot.worker?.running) return slot.worker;
    if (slot.status === 'error')
      throw new BridgeError('WORKER_UNAVAILABLE', `the worker failed repeatedly: ${slot.lastError ?? 'unknown error'}`);
    if (slot.status === 'backoff')
      throw new BridgeError('WORKER_UNAVAILABLE', `the worker is restarting after: ${slot.lastError ?? 'a crash'}`);
    slot.starting ??= this.start(slot).finally(() => {
      slot.starting = null;
    });
    return slot.starting;
  }

  private async start(slot: Slot): Promise<WorkerProcess> {
    const generation = slot.generation;
    slot.status = 'starting';
    let scratch: string | null = null;
    try {
      const { entry, revision } = await this.runnableEntry(slot);
      slot.revision = revision;
      const cached = await materialisePlugin(this.opts.db, this.opts.dataDir, slot.pluginId);
      scratch = await mkdtemp(path.join(os.tmpdir(), 'boardroom-worker-'));
      const uid = runsAsWorkerUid(this.sandbox) ? (workerUid() ?? undefined) : undefined;
      const dirs =
        uid !== undefined ? await unprivilegedDirs(cached, scratch, uid) : { pluginDir: cached, home: scratch };
      const folders = await mountedFolders(this.opts.db, slot.pluginId, slot.companyId);
      const { memoryMb, tmpMb, cpuSeconds, maxProcesses, nice } = this.limits;
      const plan = planLaunch(
        { ...dirs, entry, uid, memoryMb, tmpMb, cpuSeconds, maxProcesses, nice, folders },
        this.sandbox,
      );
      const worker = new WorkerProcess(plan, this.limits, slot.logs, (method, params) =>
        this.hostCall(slot, method, params),
      );
      const scratchDir = scratch;
      void worker.exited.then(async (exit) => {
        await rm(scratchDir, { recursive: true, force: true }).catch(() => undefined);
        slot.logs.add('host', exit.requested ? 'info' : 'error', `worker ${worker.pid} ${exit.reason}`);
        if (!exit.requested && slot.worker === worker && slot.generation === generation)
          this.crashed(slot, exit.reason);
      });
      slot.worker = worker;
      slot.logs.add('host', 'info', `worker ${worker.pid} started (${plan.sandbox})`);
      await worker
        .call(
          'initialize',
          {
            pluginId: slot.pluginId,
            companyId: slot.companyId,
            localFolders: Object.fromEntries(
              [...folders].map(([key, dir]) => [key, workerFolderPath(plan.sandbox, key, dir)]),
            ),
          },
          this.limits.initializeMs,
        )
        .catch((err: BridgeError) => {
          worker.kill(`initialize failed: ${err.message}`);
          throw err;
        });
      if (slot.generation !== generation) {
        void worker.stop();
        throw new BridgeError('WORKER_UNAVAILABLE', 'the worker was stopped while starting');
      }
      if (slot.revision < slot.stopBelow) {
        // It read the plugin before a change announced meanwhile: it runs what the change replaced.
        slot.stopBelow = -1;
        void this.halt(slot, 'stopped');
        throw new BridgeError('WORKER_UNAVAILABLE', 'the plugin changed while its worker started; retry');
      }
      slot.status = 'running';
      this.scheduleHealth(slot, worker);
      return worker;
    } catch (err) {
      if (scratch && !slot.worker) await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
      if (slot.status === 'starting') slot.status = 'stopped';
      slot.lastError = (err as Error).message;
      if (err instanceof BridgeError) throw err;
      throw new BridgeError('WORKER_UNAVAILABLE', `the worker could not start: ${(err as Error).message}`);
    }
  }

  /** The worker entry and the plugin's revision, when the plugin may run for this company now. */
  private async runnableEntry(slot: Slot): Promise<{ entry: string; revision: number }> {
    const [row] = await this.opts.db
      .select({
        status: plugins.status,
        manifest: plugins.manifest,
        revision: plugins.revision,
        consent: pluginCompanyEnablements.status,
      })
      .from(plugins)
      .leftJoin(
        pluginCompanyEnablements,
        and(eq(pluginCompanyEnablements.pluginId, plugins.id), eq(pluginCompanyEnablements.companyId, slot.companyId)),
      )
      .where(eq(plugins.id, slot.pluginId));
    if (!row) throw new BridgeError('WORKER_UNAVAILABLE', 'the plugin is not installed');
    if (row.status !== 'ready')
      throw new BridgeError('WORKER_UNAVAILABLE', `the plugin is ${row.status} on the instance`);
    if (row.consent !== 'enabled')
      throw new BridgeError('WORKER_UNAVAILABLE', 'the plugin is not enabled for this company');
    return { entry: path.posix.normalize(String(row.manifest.worker)), revision: row.revision };
  }

  private crashed(slot: Slot, reason: string): void {
    this.clearTimers(slot);
    slot.worker = null;
    slot.lastError = reason;
    const now = Date.now();
    slot.crashes = [...slot.crashes.filter((at) => now - at < this.supervision.crashWindowMs), now];
    if (slot.crashes.length >= this.supervision.maxCrashes) {
      slot.status = 'error';
      slot.logs.add('host', 'error', `${slot.crashes.length} crashes: marked error (${reason})`);
      return;
    }
    const delay = Math.min(this.supervision.maxBackoffMs, this.supervision.backoffMs * 2 ** (slot.crashes.length - 1));
    slot.status = 'backoff';
    slot.logs.add('host', 'warn', `restarting in ${delay} ms`);
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = null;
      if (slot.status !== 'backoff' || this.closed) return;
      slot.status = 'stopped';
      slot.restarts++;
      this.ensure(slot).catch((err: Error) => {
        // A restart that fails before a process exists is a crash of its own (another backoff, or
        // `error`); one whose process exited is counted by its exit.
        if (slot.status === 'stopped' && !slot.worker) this.crashed(slot, err.message);
      });
    }, delay);
    slot.restartTimer.unref();
  }

  private scheduleHealth(slot: Slot, worker: WorkerProcess): void {
    if (slot.healthTimer) clearInterval(slot.healthTimer);
    slot.healthTimer = setInterval(() => {
      if (!worker.running) return;
      worker.call('health', {}, this.limits.healthMs).catch((err: Error) => {
        if (worker.running) worker.kill(`health ping failed: ${err.message}`);
      });
    }, this.supervision.healthIntervalMs);
    slot.healthTimer.unref();
    this.touch(slot);
  }

  private touch(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      slot.logs.add('host', 'info', `idle for ${this.supervision.idleMs} ms: stopping`);
      void this.halt(slot, 'stopped');
    }, this.supervision.idleMs);
    slot.idleTimer.unref();
  }

  private async halt(slot: Slot, status: WorkerStatus): Promise<StopStage | null> {
    slot.generation++;
    this.clearTimers(slot);
    const worker = slot.worker;
    slot.status = status;
    if (!worker) return null;
    const stage = await worker.stop();
    slot.logs.add('host', 'info', `stopped (${stage})`);
    if (slot.worker === worker) slot.worker = null;
    return stage;
  }

  private clearTimers(slot: Slot): void {
    for (const timer of [slot.restartTimer, slot.idleTimer, slot.healthTimer]) if (timer) clearTimeout(timer);
    slot.restartTimer = slot.idleTimer = slot.healthTimer = null;
  }

  /**
   * Worker-to-host calls: `log` here, the rest through the host API, scoped to the slot's plugin and
   * company and to the invocation the call names (a finished or unknown one is none).
   */
  private async hostCall(slot: Slot, method: string, params: unknown): Promise<unknown> {
    if (method === 'log') {
      const { level, message } = (params ?? {}) as { level?: unknown; message?: unknown };
      const lvl = typeof level === 'string' && LOG_LEVELS.has(level) ? (level as LogLine['level']) : 'info';
      slot.logs.add('log', lvl, typeof message === 'string' ? message : JSON.stringify(message ?? null));
      return { ok: true };
    }
    if (!this.opts.hostApi) throw new MethodNotFound(method);
    const named = (params as { invocationId?: unknown } | null)?.invocationId;
    const invocation = typeof named === 'string' ? (slot.invocations.get(named) ?? null) : null;
    return this.opts.hostApi(
      { db: this.opts.db, pluginId: slot.pluginId, companyId: slot.companyId, invocation },
      method,
      params,
    );
  }
}

/** How the worker is told who caused an invocation: the activity log's actor type and id. */
function actorStampOf(actor: BoardActor | AgentActor): { type: 'user' | 'agent'; id: string; runId: string | null } {
  return actor.kind === 'board'
    ? { type: 'user', id: actor.userId, runId: null }
    : { type: 'agent', id: actor.agentId, runId: actor.runId ?? null };
}

const slotKey = (pluginId: string, companyId: string) => `${pluginId}/${companyId}`;
const slotOfKey = (key: string) => {
  const [pluginId = '', companyId = ''] = key.split('/');
  return { pluginId, companyId };
};

/**
 * For a worker running as a user id of its own: a read-only, root-owned copy of the plugin folder it
 * can read (the cache is inside the server's data directory, which it cannot), and a home of its own.
 */
async function unprivilegedDirs(
  cached: string,
  scratch: string,
  uid: number,
): Promise<{ pluginDir: string; home: string }> {
  const pluginDir = path.join(scratch, 'plugin');
  const home = path.join(scratch, 'home');
  await cp(cached, pluginDir, { recursive: true });
  await readOnlyTree(pluginDir);
  await mkdir(home, { mode: 0o700 });
  await chown(home, uid, uid);
  await chmod(scratch, 0o755);
  return { pluginDir, home };
}

async function readOnlyTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await readOnlyTree(full);
    else await chmod(full, 0o444);
  }
  await chmod(dir, 0o555);
}

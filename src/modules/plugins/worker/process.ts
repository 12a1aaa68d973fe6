// One worker child process and the JSON-RPC 2.0 conversation with it, one JSON object per line over
// stdio. Every host call has a deadline; a call past it is answered TIMEOUT at once, the worker is
// sent `cancel`, and killed when it has not answered `cancelGraceMs` later (it is stuck). A line over
// `maxLineBytes`, output that is not JSON-RPC, or a dead pipe kill the worker as misbehaving, with
// the reason kept as `exitReason`. Calls in flight are bounded: one over `maxInFlight` fails at once
// (WORKER_UNAVAILABLE, "busy"), so one plugin cannot hold the host's resources.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { BridgeError } from './errors.ts';
import { LineSplitter, type LogRing } from './lines.ts';
import { DEFAULT_CAPS, killProcessesOf, type LaunchPlan, type SandboxKind, setAutogroupNice } from './sandbox.ts';

export interface WorkerLimits {
  initializeMs: number;
  invokeMs: number;
  healthMs: number;
  cancelGraceMs: number;
  /** Shutdown stages: after the `shutdown` request, then after SIGTERM. */
  shutdownMs: number;
  termMs: number;
  maxLineBytes: number;
  maxInFlight: number;
  memoryMb: number;
  tmpMb: number;
  /** CPU seconds each of the worker's processes may use before it is killed (and restarted). */
  cpuSeconds: number;
  /** Processes and threads at once, where the worker has a user id of its own. */
  maxProcesses: number;
  /** Its scheduling niceness: a busy worker yields to the server. */
  nice: number;
  /** Resident memory of its whole process tree (the heap cap does not cover Buffers or children), checked every `rssCheckMs`. */
  rssMb: number;
  rssCheckMs: number;
}

export const DEFAULT_WORKER_LIMITS: WorkerLimits = {
  initializeMs: 15_000,
  invokeMs: 30_000,
  healthMs: 5_000,
  cancelGraceMs: 2_000,
  shutdownMs: 10_000,
  termMs: 5_000,
  maxLineBytes: 1024 * 1024,
  maxInFlight: 8,
  memoryMb: 128,
  tmpMb: 16,
  ...DEFAULT_CAPS,
  rssMb: 384,
  rssCheckMs: 1_000,
};

/** What a worker's death by RLIMIT_CPU looks like: SIGXCPU itself, or bubblewrap passing it on as 128 + its number. */
const SIGXCPU_STATUS = 128 + 24;
const HEAP_OUT_OF_MEMORY = /JavaScript heap out of memory/;

/** How a stop ended: the worker left after `shutdown`, or had to be sent a signal. */
export type StopStage = 'shutdown' | 'SIGTERM' | 'SIGKILL' | 'exited';

export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the host ended it, or what the exit looked like. */
  reason: string;
  /** Whether the host asked it to stop (a stop is not a crash). */
  requested: boolean;
}

/** A call from the worker to the host: the result, or a thrown Error becomes the JSON-RPC error. */
export type HostCallHandler = (method: string, params: unknown) => Promise<unknown>;

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Counted against maxInFlight (lifecycle calls are not). */
  counted: boolean;
}

const METHOD_NOT_FOUND = -32601;

// Workers still alive when the server process exits (a shutdown whose stages overran their bound, a
// crash) are killed with it: a worker never outlives its server.
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  liveChildren.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of liveChildren) c.kill('SIGKILL');
  });
}

export class WorkerProcess {
  readonly sandbox: SandboxKind;
  readonly startedAt = Date.now();
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly cancelled = new Map<number, NodeJS.Timeout>();
  private nextId = 1;
  private inFlight = 0;
  private stopping = false;
  private killReason: string | null = null;
  private outOfMemory = false;
  private measuring = false;
  readonly exited: Promise<WorkerExit>;

  constructor(
    plan: LaunchPlan,
    private readonly limits: WorkerLimits,
    private readonly logs: LogRing,
    private readonly onHostCall: HostCallHandler,
  ) {
    this.sandbox = plan.sandbox;
    this.child = spawn(plan.command, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      uid: plan.uid,
      gid: plan.gid,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so a signal to the server's terminal never reaches it unasked.
      detached: true,
    });
    killOnExit(this.child);
    if (plan.nice !== null && this.child.pid) setAutogroupNice(this.child.pid, plan.nice);
    const stdout = new LineSplitter(
      limits.maxLineBytes,
      (line) => this.onLine(line),
      () => this.kill(`a line over ${limits.maxLineBytes} bytes on stdout`),
    );
    const stderr = new LineSplitter(
      limits.maxLineBytes,
      (line) => {
        if (HEAP_OUT_OF_MEMORY.test(line)) this.outOfMemory = true;
        this.logs.add('stderr', 'info', line);
      },
      () => this.logs.add('host', 'warn', `a stderr line over ${limits.maxLineBytes} bytes was dropped`),
    );
    const memoryCheck = setInterval(() => void this.checkMemory(), limits.rssCheckMs);
    memoryCheck.unref();
    this.child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A write to a worker that is gone: the pipe is dead, the worker counts as crashed.
    this.child.stdin?.on('error', () => this.kill('its stdin pipe is closed'));
    this.exited = new Promise((resolve) => {
      let spawnError: string | null = null;
      this.child.on('error', (err) => {
        spawnError = `could not start: ${err.message}`;
      });
      // What the worker forked goes with it, even what holds its pipes open (else `close` would wait
      // on it): under bubblewrap its pid namespace ends with it; elsewhere every process under its
      // own user id, else its process group.
      this.child.on('exit', () => {
        if (plan.sandbox === 'bwrap') return;
        if (plan.uid !== undefined) killProcessesOf(plan.uid);
        else if (this.child.pid)
          try {
            process.kill(-this.child.pid, 'SIGKILL');
          } catch {}
      });
      this.child.on('close', (code, signal) => {
        clearInterval(memoryCheck);
        liveChildren.delete(this.child);
        stderr.flush();
        const reason =
          this.killReason ??
          spawnError ??
          (this.outOfMemory
            ? `over its memory cap (${limits.memoryMb} MiB heap): killed`
            : signal === 'SIGXCPU' || (plan.sandbox === 'bwrap' && code === SIGXCPU_STATUS)
              ? `over its CPU cap (${limits.cpuSeconds} CPU seconds): killed`
              : signal
                ? `killed by ${signal}`
                : `exited with status ${code}`);
        for (const [, timer] of this.cancelled) clearTimeout(timer);
        this.failAll(new BridgeError('WORKER_UNAVAILABLE', `the worker stopped: ${reason}`));
        resolve({ code, signal, reason, requested: this.stopping });
      });
    });
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** A host-to-worker request with a deadline; rejects with a BridgeError. */
  call(method: string, params: unknown, timeoutMs = this.limits.invokeMs): Promise<unknown> {
    const counted = method === 'invoke';
    if (!this.running || this.stopping)
      return Promise.reject(new BridgeError('WORKER_UNAVAILABLE', 'the worker is not running'));
    if (counted && this.inFlight >= this.limits.maxInFlight)
      return Promise.reject(
        new BridgeError('WORKER_UNAVAILABLE', `the worker is busy (${this.limits.maxInFlight} calls in flight); retry`),
      );
    const id = this.nextId++;
    if (counted) this.inFlight++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.expire(id), timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer, counted });
      this.send({ id, method, params });
    });
  }

  /** The staged stop: `shutdown`, then SIGTERM, then SIGKILL; resolves with the stage that ended it. */
  async stop(): Promise<StopStage> {
    if (!this.running) return 'exited';
    this.stopping = true;
    const gone = (ms: number) =>
      Promise.race([this.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), ms).unref())]);
    this.send({ id: this.nextId++, method: 'shutdown', params: {} });
    if (await gone(this.limits.shutdownMs)) return 'shutdown';
    this.signal('SIGTERM');
    if (await gone(this.limits.termMs)) return 'SIGTERM';
    this.signal('SIGKILL');
    await this.exited;
    return 'SIGKILL';
  }

  /** Ends a misbehaving worker at once; `reason` becomes its exit reason. */
  kill(reason: string): void {
    if (!this.running) return;
    this.killReason ??= reason;
    this.signal('SIGKILL');
  }

  /** Kills the worker when its process tree's resident memory is over the cap (what V8's heap cap misses). */
  private async checkMemory(): Promise<void> {
    const pid = this.child.pid;
    if (!pid || !this.running || this.measuring) return;
    this.measuring = true;
    try {
      const { total } = await residentMiB(pid);
      if (total > this.limits.rssMb && this.running)
        this.kill(`over its memory cap (${this.limits.rssMb} MiB resident, had ${Math.round(total)} MiB): killed`);
    } finally {
      this.measuring = false;
    }
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      this.child.kill(signal);
    } catch {}
  }

  private send(message: Record<string, unknown>): void {
    if (!this.child.stdin?.writable) return this.kill('its stdin pipe is closed');
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  private settle(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (entry.counted) this.inFlight--;
    return entry;
  }

  private expire(id: number): void {
    const entry = this.settle(id);
    if (!entry) return;
    entry.reject(new BridgeError('TIMEOUT', `${entry.method} did not answer in time`));
    this.send({ method: 'cancel', params: { id } });
    // A worker that does not answer even a cancelled call is stuck: ended, so the supervisor restarts it.
    const timer = setTimeout(() => this.kill(`${entry.method} did not answer after cancel`), this.limits.cancelGraceMs);
    timer.unref();
    this.cancelled.set(id, timer);
  }

  private failAll(error: BridgeError): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(line);
    } catch {
      return this.kill('it wrote a line on stdout that is not JSON');
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message))
      return this.kill('it wrote a JSON line that is not a JSON-RPC message');
    if (typeof message.method === 'string') return void this.onWorkerCall(message.method, message.params, message.id);
    if (typeof message.id !== 'number') return;
    const late = this.cancelled.get(message.id);
    if (late) {
      clearTimeout(late);
      this.cancelled.delete(message.id);
      return;
    }
    const entry = this.settle(message.id);
    if (!entry) return;
    if (message.error !== undefined) {
      const text = (message.error as { message?: unknown })?.message;
      entry.reject(new BridgeError('WORKER_ERROR', typeof text === 'string' ? text : 'the worker answered an error'));
    } else entry.resolve(message.result ?? null);
  }

  private async onWorkerCall(method: string, params: unknown, id: unknown): Promise<void> {
    const answer = id !== undefined && (typeof id === 'number' || typeof id === 'string');
    try {
      const result = await this.onHostCall(method, params);
      if (answer && this.running) this.send({ id, result: result ?? null });
    } catch (err) {
      const code = err instanceof MethodNotFound ? METHOD_NOT_FOUND : -32000;
      if (answer && this.running) this.send({ id, error: { code, message: (err as Error).message } });
    }
  }
}

/**
 * Resident memory of a process and all its descendants (children of any of their threads), in MiB,
 * and how many processes that is (Linux /proc; what cannot be read counts nothing). Pages shared
 * between them count once per process: an upper bound.
 */
export async function residentMiB(root: number): Promise<{ total: number; processes: number }> {
  let kb = 0;
  let processes = 0;
  const seen = new Set<number>();
  const pending = [root];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    if (seen.has(pid)) continue;
    seen.add(pid);
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
    if (status === null) continue;
    processes++;
    kb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
      const children = await readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '');
      for (const child of children.split(/\s+/)) if (child) pending.push(Number(child));
    }
  }
  return { total: kb / 1024, processes };
}

/** Thrown by a host call handler for a method the host does not offer. */
export class MethodNotFound extends Error {
  constructor(method: string) {
    super(`method not found: ${method}`);
  }
}

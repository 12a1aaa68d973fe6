// The engine: the loops that run with no HTTP request behind them. Each replica runs one engine;
// every coordination between replicas goes through the database (SKIP LOCKED claims, the unique
// live-run-per-issue index, advisory locks, LISTEN/NOTIFY). Loops act as the system actor and call
// the same services as routes.
//
// - dispatcher: queued wakeups -> runs (dispatcher.ts)
// - executor: runs -> adapter work, leases, logs (executor.ts)
// - timers: heartbeat-enabled agents get one timer wake per interval (modules/wakeups/timers.ts)
// - routines: schedule triggers fire on their ticks; runs left undecided are swept (modules/routines/scheduler.ts)
// - retention: prunes finished runs, their logs, finished wakeups, plugin job runs and delivered
//   plugin webhooks past the retention period
// - reaper: ends runs whose lease lapsed or whose deadline passed; puts stranded wakes back (one
//   replica at a time); at start, ends the runs of this replica's previous life at once.
// - worktrees: removes the git worktrees of closed isolated execution workspaces (modules/execution-workspaces)
// - runtime services: supervises the workspaces' runtime-service commands (runtime-services.ts)
// - budget stops: applies hard budget stops as their incidents commit, NOTIFY plus a sweep (budget-stops.ts)
// - plugin jobs: due plugin job schedules fire once per fire time, runs leased and taken over (plugins/jobs.ts)
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { HeartbeatRun } from '../db/rows.ts';
import { isLiveRunStatus } from '../core/statuses.ts';
import { reapExpiredRuns, reapPreviousBoot } from '../modules/runs/reap.ts';
import { prunePluginHistory } from '../modules/plugins/retention.ts';
import { PRUNE_BATCH, pruneRunHistory } from '../modules/runs/retention.ts';
import { requeueStrandedWakes } from '../modules/wakeups/queue.ts';
import { decideStrandedRuns } from '../modules/routines/routine-runs.ts';
import { fireDueSchedules } from '../modules/routines/scheduler.ts';
import { BUDGET_PAUSE_REASON } from '../core/agent-status.ts';
import { newTimerState, queueDueTimerWakes } from '../modules/wakeups/timers.ts';
import { removeClosedWorktrees } from '../modules/execution-workspaces/service.ts';
import { createAdapterRegistry, type AdapterRegistry } from '../adapters/registry.ts';
import { startDispatcher } from './dispatcher.ts';
import { createExecutor, engineRetry, type ExecutorSettings } from './executor.ts';
import type { Notifications } from '../db/notifications.ts';
import { killRunProcessGroup } from './process-groups.ts';
import { replicaIdentity, type ReplicaIdentity } from './replica.ts';
import { startRuntimeServices } from './runtime-services.ts';
import { startBudgetStops } from './budget-stops.ts';
import type { PluginWorkers } from '../modules/plugins/worker/host.ts';
import { startWebhookDispatch } from './plugins/webhook-dispatch.ts';
import { startEventDispatch } from './plugins/events.ts';
import { startPluginJobs } from './plugins/jobs.ts';

export interface EngineSettings extends Omit<ExecutorSettings, 'leaseSec'> {
  /** Lease of a live run; its owner renews it every third of this. */
  leaseSec?: number;
  /** Fallback poll of the wakeup queue when no notification comes. */
  pollMs?: number;
  reaperIntervalMs?: number;
  /** Deferred wakes are looked at again after this long even without the promotion that should free them. */
  deferredRecheckSec?: number;
  /** How often timer wakes are looked for (the finest heartbeat interval is 1 s). */
  timerTickMs?: number;
  /** Finished runs, logs and wakeups older than this are pruned. */
  retentionDays?: number;
  retentionIntervalMs?: number;
  /** How often due schedule triggers are looked for: a tick's run exists within this (plus its decision) of its time. */
  routineTickMs?: number;
  /** How often routine runs stranded between record and decision are looked for. */
  routineSweepMs?: number;
  /** How often hard budget stops still pending are looked for (each is applied on its NOTIFY; this is the net). */
  budgetStopMs?: number;
  /** How often worktrees of closed isolated execution workspaces are looked for and removed. */
  worktreeSweepMs?: number;
  /** How often runtime services are converged on their desiredState. */
  runtimeServiceTickMs?: number;
  /** First restart delay of a crashed runtime service (doubles per crash, capped at 60 s). */
  runtimeServiceBackoffMs?: number;
  /** SIGTERM to SIGKILL when a runtime service is stopped. */
  runtimeServiceGraceMs?: number;
  /** How often due plugin job schedules and claimable job runs are looked for (a job starts within this of its time). */
  pluginJobTickMs?: number;
  /** Plugin job runs one replica runs at once. */
  pluginJobsMaxRunning?: number;
  /** The routine scheduler's clock (ms since the epoch); tests move time with it. */
  clock?: () => number;
}

export const ENGINE_DEFAULTS = {
  leaseSec: 30,
  pollMs: 2_000,
  reaperIntervalMs: 5_000,
  deferredRecheckSec: 60,
  claimBatch: 20,
  timerTickMs: 1_000,
  retentionDays: 30,
  retentionIntervalMs: 60_000,
  routineTickMs: 500,
  routineSweepMs: 5_000,
  budgetStopMs: 500,
  worktreeSweepMs: 1_000,
  runtimeServiceTickMs: 1_000,
  runtimeServiceBackoffMs: 1_000,
  runtimeServiceGraceMs: 5_000,
  pluginJobTickMs: 250,
  pluginJobsMaxRunning: 16,
} as const;

export interface EngineDeps {
  database: Database;
  /** The replica's LISTEN connection, shared with the HTTP app; its owner closes it after the engine stops. */
  notifications: Notifications;
  logger: Logger;
  settings: EngineSettings;
  registry?: AdapterRegistry;
  /** The app's plugin workers (`pluginWorkersOf(app)`): plugin webhooks, events and jobs are handed to them. Without them none runs here. */
  pluginWorkers?: PluginWorkers;
}

export interface Engine {
  identity: ReplicaIdentity;
  registry: AdapterRegistry;
  /** Runs executing on this replica right now. */
  activeRuns(): number;
  stop(): Promise<void>;
}

export async function startEngine(deps: EngineDeps): Promise<Engine> {
  const { db } = deps.database;
  const { logger } = deps;
  const settings = { ...ENGINE_DEFAULTS, ...deps.settings };
  const identity = await replicaIdentity(settings.dataDir);
  const registry = deps.registry ?? createAdapterRegistry();
  const { notifications } = deps;
  const executor = createExecutor(db, registry, { ...settings, leaseSec: settings.leaseSec }, logger);

  // A run that ended anywhere (cancel route, pause, budget, reaper on another replica) stops here.
  notifications.on('run', (run) => {
    if (!isLiveRunStatus(run.status)) executor.abort(run.runId, run.error === BUDGET_PAUSE_REASON);
  });

  const killLeftovers = async (runs: HeartbeatRun[]) => {
    for (const run of runs) if (run.pid) await killRunProcessGroup(run.pid, run.id);
  };
  const retry = engineRetry(logger);
  const previous = await reapPreviousBoot(db, identity, retry);
  await killLeftovers(previous);
  if (previous.length > 0)
    logger.warn({ runs: previous.map((r) => r.id) }, 'engine: ended the runs of the previous start');
  await notifications.ready;

  const dispatcher = startDispatcher({
    db,
    notifications,
    executor,
    owner: { ...identity, leaseSec: settings.leaseSec },
    options: settings,
    logger,
  });

  let reaping: Promise<void> | null = null;
  const reap = async () => {
    const reaped = await reapExpiredRuns(db, retry);
    if (reaped && reaped.length > 0) {
      logger.warn({ runs: reaped.map((r) => ({ id: r.id, status: r.status, error: r.error })) }, 'engine: reaped runs');
      await killLeftovers(reaped);
    }
    await requeueStrandedWakes(db, settings.deferredRecheckSec);
  };
  const reaper = setInterval(() => {
    reaping ??= reap()
      .catch((err) => logger.warn({ err }, 'engine: reaper sweep failed'))
      .finally(() => (reaping = null));
  }, settings.reaperIntervalMs);

  const timerState = newTimerState();
  let ticking: Promise<unknown> | null = null;
  const timers = setInterval(() => {
    ticking ??= queueDueTimerWakes(db, timerState)
      .catch((err) => logger.warn({ err }, 'engine: timer tick failed'))
      .finally(() => (ticking = null));
  }, settings.timerTickMs);

  const clock = settings.clock ?? Date.now;
  let scheduling: Promise<unknown> | null = null;
  const scheduler = setInterval(() => {
    scheduling ??= fireDueSchedules(db, clock())
      .catch((err) => logger.warn({ err }, 'engine: routine scheduler tick failed'))
      .finally(() => (scheduling = null));
  }, settings.routineTickMs);
  let sweeping: Promise<unknown> | null = null;
  const routineSweep = setInterval(() => {
    sweeping ??= decideStrandedRuns(db, clock())
      .catch((err) => logger.warn({ err }, 'engine: routine run sweep failed'))
      .finally(() => (sweeping = null));
  }, settings.routineSweepMs);

  const budgetStops = startBudgetStops(db, notifications, settings.budgetStopMs, logger);
  const pluginDispatch = deps.pluginWorkers ? { db, notifications, workers: deps.pluginWorkers, logger } : null;
  const pluginLoops = pluginDispatch ? [startWebhookDispatch(pluginDispatch), startEventDispatch(pluginDispatch)] : [];

  const pluginJobs = deps.pluginWorkers
    ? await startPluginJobs({
        db,
        workers: deps.pluginWorkers,
        identity,
        leaseSec: settings.leaseSec,
        tickMs: settings.pluginJobTickMs,
        maxRunning: settings.pluginJobsMaxRunning,
        logger,
      })
    : null;

  let removingWorktrees: Promise<unknown> | null = null;
  const worktreeSweep = setInterval(() => {
    removingWorktrees ??= removeClosedWorktrees(db)
      .catch((err) => logger.warn({ err }, 'engine: removing closed worktrees failed'))
      .finally(() => (removingWorktrees = null));
  }, settings.worktreeSweepMs);

  const services = await startRuntimeServices(
    db,
    identity,
    {
      leaseSec: settings.leaseSec,
      graceMs: settings.runtimeServiceGraceMs,
      backoffMs: settings.runtimeServiceBackoffMs,
      maxBackoffMs: 60_000,
      stableMs: 30_000,
    },
    logger,
  );
  let converging: Promise<unknown> | null = null;
  const serviceLoop = setInterval(() => {
    converging ??= services
      .tick()
      .catch((err) => logger.warn({ err }, 'engine: runtime services tick failed'))
      .finally(() => (converging = null));
  }, settings.runtimeServiceTickMs);

  let pruning: Promise<unknown> | null = null;
  const prune = async () => {
    for (;;) {
      const pruned = await pruneRunHistory(db, settings.retentionDays);
      if (!pruned) break;
      if (pruned.runs + pruned.wakeups > 0) logger.info({ pruned }, 'engine: pruned run history');
      if (pruned.runs < PRUNE_BATCH && pruned.wakeups < PRUNE_BATCH) break;
    }
    for (;;) {
      const pruned = await prunePluginHistory(db, settings.retentionDays, PRUNE_BATCH);
      if (!pruned) return;
      if (pruned.jobRuns + pruned.deliveries > 0) logger.info({ pruned }, 'engine: pruned plugin history');
      if (pruned.jobRuns < PRUNE_BATCH && pruned.deliveries < PRUNE_BATCH) return;
    }
  };
  const retention = setInterval(() => {
    pruning ??= prune()
      .catch((err) => logger.warn({ err }, 'engine: pruning run history failed'))
      .finally(() => (pruning = null));
  }, settings.retentionIntervalMs);

  logger.info({ replica: identity.replica }, 'engine started');
  let stopping: Promise<void> | null = null;
  return {
    identity,
    registry,
    activeRuns: () => executor.activeCount(),
    stop() {
      stopping ??= (async () => {
        clearInterval(reaper);
        clearInterval(timers);
        clearInterval(retention);
        clearInterval(scheduler);
        clearInterval(routineSweep);
        clearInterval(worktreeSweep);
        clearInterval(serviceLoop);
        await dispatcher.stop();
        await Promise.all([
          reaping,
          ticking,
          pruning,
          scheduling,
          sweeping,
          budgetStops.stop(),
          pluginJobs?.stop(),
          removingWorktrees,
          converging,
          ...pluginLoops.map((loop) => loop.stop()),
        ]);
        await Promise.all([executor.stop(), services.stop()]);
      })();
      return stopping;
    },
  };
}

export function stopEngine(engine: Engine | null): Promise<void> {
  return engine ? engine.stop() : Promise.resolve();
}

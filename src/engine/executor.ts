// Runs the work of a queued run through its adapter, on the replica that created it.
//
// A run goes through its steps in order, each its own function that fails with its code (a
// RunFailure, core/run-failures.ts): the agent and the adapter (before the run starts), then the
// secrets of its env (a secret that cannot be resolved fails the run before any process starts), its
// credentials, its workspace (run-preparation.ts), and last the adapter's work itself
// (adapter-run.ts). How the run ends is decided in one place (run-end.ts): from the first step that
// failed, or from the adapter's outcome. A `run` notification for a run that ended elsewhere
// (cancelled, reaped) stops the work, as does a lease renewal that finds it no longer running.
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { transactionWithRetry, type RetryOptions } from '../db/retry.ts';
import { systemActor } from '../core/actor.ts';
import { RunFailure } from '../core/run-failures.ts';
import { finishRun, recordLateOutcome, recordRunWorkspace, startRun, type RunEnd } from '../modules/runs/lifecycle.ts';
import type { HeartbeatRun } from '../db/rows.ts';
import type { AdapterRegistry } from '../adapters/registry.ts';
// The defaults live with the adapters' config fields, so the config schemas show them.
import { DEFAULT_GRACE_SEC, DEFAULT_TIMEOUT_SEC } from '../adapters/config-fields.ts';
import { HARD_STOP } from '../adapters/types.ts';
import { runAdapter, type AdapterRunSettings } from './adapter-run.ts';
import { endOfFailure, endOfWork } from './run-end.ts';
import { describeRunWorkspace, withRunDiffStat } from './run-workspace.ts';
import {
  findRunAdapter,
  findRunAgent,
  prepareRunWorkspace,
  readRunCredentials,
  resolveRunSecrets,
} from './run-preparation.ts';

export interface ExecutorSettings extends AdapterRunSettings {
  dataDir: string;
  masterKey: Buffer;
}

export interface Executor {
  execute(run: HeartbeatRun): void;
  /** Stops the local work of a run that ended elsewhere (cancel, reaper). */
  abort(runId: string, hard?: boolean): void;
  activeCount(): number;
  /** Server shutdown: every local run is stopped and recorded as failed (the next start would reap it anyway). */
  stop(): Promise<void>;
}

const positive = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;

export function createExecutor(
  db: Db,
  registry: AdapterRegistry,
  settings: ExecutorSettings,
  logger: Logger,
): Executor {
  const active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopping = false;

  const retry = engineRetry(logger);
  const finish = (runId: string, end: RunEnd) =>
    transactionWithRetry(db, (tx) => finishRun(tx, systemActor('engine', runId), runId, end), retry);

  /** The run's steps in order; a step that fails throws, and execute() ends the run from it. */
  async function work(run: HeartbeatRun, controller: AbortController): Promise<void> {
    const agent = await findRunAgent(db, run);
    const adapter = await findRunAdapter(db, registry, run);
    const config = agent.adapterConfig;
    const timeoutSec = positive(config.timeoutSec, DEFAULT_TIMEOUT_SEC);
    const graceSec = typeof config.graceSec === 'number' && config.graceSec >= 0 ? config.graceSec : DEFAULT_GRACE_SEC;
    const started = await transactionWithRetry(
      db,
      (tx) =>
        startRun(tx, systemActor('engine', run.id), run.id, { leaseSec: settings.leaseSec, timeoutSec, graceSec }),
      retry,
    );
    if (!started) return; // cancelled while it was queued

    const secrets = await resolveRunSecrets(db, settings.masterKey, agent);
    const signingSecret = await readRunCredentials(db, settings.masterKey, agent, adapter);
    const workspace = await prepareRunWorkspace(db, settings.dataDir, run, agent, adapter, secrets.configEnv);
    const place = await describeRunWorkspace(workspace.cwd, workspace.kind);
    // Only the run page reads it: a failed write is logged, never the run's end.
    await recordRunWorkspace(db, run.id, place).catch((err) =>
      logger.warn({ err, runId: run.id }, "engine: could not record the run's workspace"),
    );
    const prepared = { run, agent, adapter, timeoutSec, graceSec, secrets, signingSecret, workspace };
    const result = await runAdapter(db, settings, logger, prepared, controller.signal, () => controller.abort());
    const end = {
      ...endOfWork(result, { timeoutSec, serverStopping: stopping }),
      workspace: await withRunDiffStat(place),
    };
    // Ended elsewhere meanwhile (cancel, reaper): its end stands; what the work saw is still worth keeping.
    if (!(await finish(run.id, end))) await recordLateOutcome(db, run.id, end);
  }

  return {
    execute(run) {
      const controller = new AbortController();
      const done = work(run, controller)
        .catch(async (err) => {
          if (!(err instanceof RunFailure)) logger.error({ err, runId: run.id }, 'engine: run failed in the engine');
          await finish(run.id, endOfFailure(err)).catch((finishErr) =>
            logger.warn({ err: finishErr, runId: run.id }, 'engine: could not record the end of a failed run'),
          );
        })
        .finally(() => active.delete(run.id));
      active.set(run.id, { controller, done });
    },
    abort(runId, hard = false) {
      active.get(runId)?.controller.abort(hard ? HARD_STOP : undefined);
    },
    activeCount: () => active.size,
    async stop() {
      stopping = true;
      for (const { controller } of active.values()) controller.abort();
      await Promise.all([...active.values()].map((a) => a.done));
    },
  };
}

/** How the engine's transactions retry: transactionWithRetry, each retry logged (a warning: it worked, but a cycle formed). */
export function engineRetry(logger: Logger): RetryOptions {
  return {
    onRetry: (err, attempt) =>
      logger.warn(
        { err, attempt },
        'engine: the database aborted a transaction (deadlock or serialization failure); retrying the transaction',
      ),
  };
}

// Runs the work of a queued run through its adapter, on the replica that created it.
//
// Everything the run needs is prepared before the adapter sees it: the run JWT (lifetime = deadline
// plus grace plus a minute), the env with secrets resolved (a secret that cannot be resolved fails
// the run before any process starts), the working directory, the wake prompt, the log writer that
// masks every secret value and stores the log in the database (so every replica can serve it).
// While the adapter works the executor renews the run's lease; a renewal that finds the run no
// longer running (cancelled or reaped on any replica) stops the work, and so does a `run`
// notification for it, which is just the faster path to the same thing. The log is closed (all of
// it stored) before the run's end is recorded, so a finished run's logBytes is its whole log.
import os from 'node:os';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { transactionWithRetry, type RetryOptions } from '../db/retry.ts';
import { agentWakeupRequests, issues, projectWorkspaces } from '../db/schema/index.ts';
import { systemActor } from '../core/actor.ts';
import { findAgentById } from '../core/agent-access.ts';
import { readSigningSecret } from '../modules/agents/signing-secret.ts';
import { mintAgentJwt } from '../modules/auth/jwt.ts';
import {
  finishRun,
  recordLateOutcome,
  recordRunProgress,
  renewLease,
  startRun,
  type RunEnd,
} from '../modules/runs/lifecycle.ts';
import type { HeartbeatRun } from '../db/rows.ts';
import { addUsage } from '../modules/runs/usage.ts';
import { resolveEnvBindings, SecretResolutionError } from '../modules/secrets/resolve.ts';
import type { AdapterRegistry } from '../adapters/registry.ts';
import { buildRunEnv } from '../adapters/run-env.ts';
import { openRunLog } from '../modules/runs/run-log.ts';
import { buildWakePrompt } from './wake-prompt.ts';
import { recordRunUsage } from '../modules/costs/service.ts';
import type { PriceTable } from '../core/pricing.ts';
// The defaults live with the adapters' config fields, so the config schemas show them.
import { DEFAULT_GRACE_SEC, DEFAULT_TIMEOUT_SEC } from '../adapters/config-fields.ts';
import { HARD_STOP } from '../adapters/types.ts';
import { adapterRunRefusal } from '../modules/adapter-registry/service.ts';
import { loadTaskSession, saveTaskSession } from '../adapters/sessions.ts';
import {
  isolatedWorkingDirectory,
  IsolationError,
  recordWorkProduct,
} from '../modules/execution-workspaces/service.ts';
import { materialiseAgentSkills, prepareCodexHome, SKILL_DIR_ADAPTERS } from '../modules/skills/materialise.ts';

export interface ExecutorSettings {
  apiUrl: string;
  dataDir: string;
  jwtSecret: Uint8Array;
  masterKey: Buffer;
  leaseSec: number;
  /** Prices of models whose usage reports carry no cost (BOARDROOM_MODEL_PRICES). */
  prices?: PriceTable;
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

  async function work(run: HeartbeatRun, controller: AbortController): Promise<void> {
    const agent = await findAgentById(db, run.agentId);
    if (!agent) {
      await finish(run.id, { status: 'failed', error: 'agent no longer exists' });
      return;
    }
    // Disabled by the operator (any replica: read from the database), or not installed here: a clear failed run.
    const refusal = await adapterRunRefusal(db, registry, run.adapterType);
    const adapter = run.adapterType ? registry.get(run.adapterType) : undefined;
    if (refusal || !adapter) {
      await finish(run.id, {
        status: 'failed',
        error: refusal ?? `adapter type ${run.adapterType} is not installed on this server`,
      });
      return;
    }
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

    const bindings = (config.env && typeof config.env === 'object' ? config.env : {}) as Record<string, unknown>;
    let configEnv: Record<string, string>;
    try {
      configEnv = await resolveEnvBindings(db, settings.masterKey, agent.companyId, bindings);
    } catch (err) {
      if (!(err instanceof SecretResolutionError)) throw err;
      await finish(run.id, { status: 'failed', error: `could not resolve adapterConfig.env: ${err.message}` });
      return;
    }
    const secretValues = Object.entries(bindings)
      .filter(
        ([, binding]) =>
          binding !== null && typeof binding === 'object' && (binding as { type?: unknown }).type !== 'plain',
      )
      .map(([name]) => configEnv[name]!);
    // Only adapters that sign (http) get the agent's signing secret; it is masked like the others.
    let signingSecret: string | null = null;
    if (adapter.usesSigningSecret) {
      try {
        signingSecret = await readSigningSecret(db, settings.masterKey, agent);
      } catch {
        await finish(run.id, {
          status: 'failed',
          error:
            "could not open the agent's signing secret (another master key, or a damaged record): generate a new one",
        });
        return;
      }
      if (signingSecret) secretValues.push(signingSecret);
    }

    const wake = run.wakeupRequestId
      ? (await db.select().from(agentWakeupRequests).where(eq(agentWakeupRequests.id, run.wakeupRequestId)))[0]
      : undefined;
    const payload = (wake?.payload ?? {}) as Record<string, unknown>;
    const wakeEnv = (payload.env && typeof payload.env === 'object' ? payload.env : {}) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    let cwd: string;
    try {
      cwd = await workingDirectory(db, settings.dataDir, agent.id, config, run.issueId);
    } catch (err) {
      if (!(err instanceof IsolationError)) throw err;
      await finish(run.id, { status: 'failed', error: err.message });
      return;
    }
    // The attached skills, written out for adapters that take a directory; an operator's explicit
    // adapterConfig.skillsDir wins (one --add-dir), so a hand-kept folder is never overwritten.
    // Codex takes them as $CODEX_HOME/skills: an agent's own adapterConfig.env.CODEX_HOME wins likewise.
    let adapterConfig = config;
    try {
      if (adapter.type === 'codex_local' && configEnv.CODEX_HOME === undefined) {
        const codexHome = await prepareCodexHome(
          db,
          settings.dataDir,
          agent.id,
          run.id,
          configEnv.HOME ?? os.homedir(),
        );
        if (codexHome) configEnv = { ...configEnv, CODEX_HOME: codexHome };
      } else if (SKILL_DIR_ADAPTERS.has(adapter.type) && typeof config.skillsDir !== 'string') {
        const skillsDir = await materialiseAgentSkills(db, settings.dataDir, agent.id, run.id);
        if (skillsDir) adapterConfig = { ...config, skillsDir };
      }
    } catch (err) {
      await finish(run.id, {
        status: 'failed',
        error: `could not write the agent's skills: ${err instanceof Error ? err.message : String(err)}`,
      });
      return;
    }
    const runToken = await mintAgentJwt(
      settings.jwtSecret,
      { agentId: agent.id, companyId: agent.companyId, adapterType: adapter.type, runId: run.id },
      Math.ceil(timeoutSec + graceSec + 60),
    );
    const { env, secrets } = buildRunEnv({
      apiUrl: settings.apiUrl,
      runToken,
      runId: run.id,
      agentId: agent.id,
      companyId: agent.companyId,
      issueId: run.issueId,
      wakeReason: run.wakeReason,
      wakeCommentId: text(payload.commentId),
      // An approval decision wakes its requester with these in the wake payload's `env`.
      approvalId: text(wakeEnv.SERVICE_APPROVAL_ID),
      approvalStatus: text(wakeEnv.SERVICE_APPROVAL_STATUS),
      workspaceCwd: cwd,
      configEnv,
      secretValues,
    });
    const prompt = await buildWakePrompt(db, {
      agent,
      runId: run.id,
      issueId: run.issueId,
      wakeReason: run.wakeReason,
      wakeSource: run.invocationSource,
      coalescedWakeups: Array.isArray(payload.coalescedWakeups)
        ? (payload.coalescedWakeups as { reason: string | null; source: string }[])
        : [],
    });
    const log = openRunLog({ db, runId: run.id, companyId: agent.companyId, secrets, logger });
    // The session to resume: this agent's last one for this issue with this adapter, unless the wake asked for a fresh start.
    const sessionKey = {
      companyId: agent.companyId,
      agentId: agent.id,
      issueId: run.issueId,
      adapterType: adapter.type,
    };
    let session = await loadTaskSession(db, sessionKey);
    const resumeFrom = wake?.forceFreshSession ? null : session;

    let pid: number | null = null;
    let usage: Record<string, unknown> | undefined;
    let result: unknown;
    // Progress writes go one after another so a slow one is never overtaken by an older value.
    let progress = Promise.resolve();
    const saveProgress = () => {
      const snapshot = { usageJson: usage, resultJson: result };
      progress = progress
        .then(() => recordRunProgress(db, run.id, snapshot))
        .catch((err) => logger.warn({ err, runId: run.id }, 'engine: could not record run progress'));
    };
    const lease = setInterval(
      () => {
        renewLease(db, run.id, settings.leaseSec, pid)
          .then((stillRunning) => {
            if (!stillRunning) controller.abort();
          })
          .catch((err) => logger.warn({ err, runId: run.id }, 'engine: lease renewal failed'));
      },
      (settings.leaseSec * 1000) / 3,
    );

    let outcome;
    try {
      outcome = await adapter.execute({
        runId: run.id,
        agent: { id: agent.id, companyId: agent.companyId, name: agent.name, adapterType: adapter.type, adapterConfig },
        issueId: run.issueId,
        wakeReason: run.wakeReason,
        env,
        prompt,
        cwd,
        timeoutSec,
        graceSec,
        signal: controller.signal,
        signingSecret,
        onLog: (_stream, chunk) => log.write(chunk),
        onUsage: (reported) => {
          usage = addUsage(usage, reported);
          saveProgress();
          // Each report is spend as of now: a cost event (and the month counters) while the run goes on.
          const context = { runId: run.id, companyId: agent.companyId, agentId: agent.id, issueId: run.issueId };
          progress = progress
            .then(async () => {
              // A hard limit it reaches is stopped by the engine's budget-stop consumer (budget-stops.ts).
              await recordRunUsage(db, context, reported, settings.prices ?? {});
            })
            .catch((err) =>
              logger.warn({ err, runId: run.id }, 'engine: could not record a usage report as a cost event'),
            );
        },
        onResult: (reported) => {
          result = reported;
          saveProgress();
        },
        sessionId: resumeFrom,
        onSession: (reported) => {
          // Written only when it changes; in the progress chain so it lands before the run's end is recorded.
          if (reported === session) return;
          session = reported;
          progress = progress
            .then(() => saveTaskSession(db, sessionKey, reported))
            .catch((err) => logger.warn({ err, runId: run.id }, 'engine: could not record the runtime session'));
        },
        onSpawn: (spawned) => {
          pid = spawned;
          void renewLease(db, run.id, settings.leaseSec, spawned).catch(() => undefined);
        },
      });
    } catch (err) {
      outcome = {
        status: 'failed' as const,
        exitCode: null,
        signal: null,
        error: `adapter error: ${(err as Error).message}`,
      };
    } finally {
      clearInterval(lease);
    }
    const summary = await log.close();
    await progress;
    // The branch as this run left it, recorded before the run's end so a client that sees the run over sees its work.
    if (run.issueId)
      await recordWorkProduct(db, run.issueId).catch((err) =>
        logger.warn({ err, runId: run.id }, 'engine: could not record the work product'),
      );
    const end: RunEnd = {
      ...outcome,
      logBytes: summary.bytes,
      logTruncated: summary.truncated,
      usageJson: usage,
      resultJson: result,
    };
    if (outcome.status === 'timed_out') end.error ??= `deadline of ${timeoutSec}s passed`;
    if (stopping && outcome.status === 'cancelled')
      Object.assign(end, { status: 'failed', error: 'the server shut down while the run was live' });
    if (!(await finish(run.id, end))) await recordLateOutcome(db, run.id, end);
  }

  return {
    execute(run) {
      const controller = new AbortController();
      const done = work(run, controller)
        .catch(async (err) => {
          logger.error({ err, runId: run.id }, 'engine: run failed in the engine');
          await finish(run.id, { status: 'failed', error: `engine error: ${(err as Error).message}` }).catch(
            () => undefined,
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

/**
 * The issue's isolated worktree when its project asks for isolation, else adapterConfig.cwd, else
 * the primary workspace of the issue's project, else the agent's own directory. Isolation comes
 * first, before the agent's own cwd: it is the project's promise that no two issues share a tree.
 */
async function workingDirectory(
  db: Db,
  dataDir: string,
  agentId: string,
  config: Record<string, unknown>,
  issueId: string | null,
): Promise<string> {
  const isolated = issueId ? await isolatedWorkingDirectory(db, dataDir, issueId) : null;
  if (isolated) return isolated;
  if (typeof config.cwd === 'string' && config.cwd.length > 0) return config.cwd;
  if (issueId) {
    const [workspace] = await db
      .select({ cwd: projectWorkspaces.cwd })
      .from(issues)
      .innerJoin(
        projectWorkspaces,
        and(eq(projectWorkspaces.projectId, issues.projectId), eq(projectWorkspaces.isPrimary, true)),
      )
      .where(eq(issues.id, issueId));
    if (workspace?.cwd) return workspace.cwd;
  }
  const own = path.join(dataDir, 'agents', agentId, 'workspace');
  await mkdir(own, { recursive: true });
  return own;
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

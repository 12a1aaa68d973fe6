// The last step of a run: its adapter does the work. Everything the adapter needs is built here
// from the prepared run (run-preparation.ts): the run JWT (lifetime = deadline plus grace plus a
// minute), the env, the wake prompt, the log writer that masks every secret value and stores the log
// in the database (so every replica can serve it), the session to resume. While the adapter works
// the lease is renewed; a renewal that finds the run no longer running (cancelled or reaped on any
// replica) aborts the work. The log is closed (all of it stored) and the progress written before
// this returns, so the run's end recorded after it carries the whole log's size.
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { Agent, HeartbeatRun } from '../db/rows.ts';
import { agentWakeupRequests } from '../db/schema/index.ts';
import type { PriceTable } from '../core/pricing.ts';
import { buildRunEnv } from '../adapters/run-env.ts';
import { loadTaskSession, saveTaskSession } from '../adapters/sessions.ts';
import type { AdapterOutcome, ServerAdapter } from '../adapters/types.ts';
import { mintAgentJwt } from '../modules/auth/jwt.ts';
import { recordRunUsage } from '../modules/costs/service.ts';
import { recordWorkProduct } from '../modules/execution-workspaces/service.ts';
import { recordRunProgress, renewLease } from '../modules/runs/lifecycle.ts';
import { openRunLog } from '../modules/runs/run-log.ts';
import { addUsage } from '../modules/runs/usage.ts';
import type { RunSecrets, RunWorkspace } from './run-preparation.ts';
import { buildWakePrompt } from './wake-prompt.ts';

export interface AdapterRunSettings {
  apiUrl: string;
  jwtSecret: Uint8Array;
  leaseSec: number;
  /** Prices of models whose usage reports carry no cost (BOARDROOM_MODEL_PRICES). */
  prices?: PriceTable;
}

export interface PreparedRun {
  run: HeartbeatRun;
  agent: Agent;
  adapter: ServerAdapter;
  timeoutSec: number;
  graceSec: number;
  secrets: RunSecrets;
  signingSecret: string | null;
  workspace: RunWorkspace;
}

export interface AdapterRunResult {
  outcome: AdapterOutcome;
  logBytes: number;
  logTruncated: boolean;
  usageJson: Record<string, unknown> | undefined;
  resultJson: unknown;
}

export async function runAdapter(
  db: Db,
  settings: AdapterRunSettings,
  logger: Logger,
  prepared: PreparedRun,
  signal: AbortSignal,
  onLeaseLost: () => void,
): Promise<AdapterRunResult> {
  const { run, agent, adapter, timeoutSec, graceSec, workspace } = prepared;
  const wake = run.wakeupRequestId
    ? (await db.select().from(agentWakeupRequests).where(eq(agentWakeupRequests.id, run.wakeupRequestId)))[0]
    : undefined;
  const payload = (wake?.payload ?? {}) as Record<string, unknown>;
  const wakeEnv = (payload.env && typeof payload.env === 'object' ? payload.env : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const runToken = await mintAgentJwt(
    settings.jwtSecret,
    { agentId: agent.id, companyId: agent.companyId, adapterType: adapter.type, runId: run.id },
    Math.ceil(timeoutSec + graceSec + 60),
  );
  const secretValues = [...prepared.secrets.secretValues];
  // The signing secret is masked in the log like the others.
  if (prepared.signingSecret) secretValues.push(prepared.signingSecret);
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
    workspaceCwd: workspace.cwd,
    configEnv: workspace.configEnv,
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
          if (!stillRunning) onLeaseLost();
        })
        .catch((err) => logger.warn({ err, runId: run.id }, 'engine: lease renewal failed'));
    },
    (settings.leaseSec * 1000) / 3,
  );

  let outcome: AdapterOutcome;
  try {
    outcome = await adapter.execute({
      runId: run.id,
      agent: {
        id: agent.id,
        companyId: agent.companyId,
        name: agent.name,
        adapterType: adapter.type,
        adapterConfig: workspace.adapterConfig,
      },
      issueId: run.issueId,
      wakeReason: run.wakeReason,
      env,
      prompt,
      cwd: workspace.cwd,
      timeoutSec,
      graceSec,
      signal,
      signingSecret: prepared.signingSecret,
      onLog: (stream, chunk) => log.write(chunk, stream),
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
      status: 'failed',
      exitCode: null,
      signal: null,
      error: `adapter error: ${(err as Error).message}`,
      errorCode: 'adapter_error',
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
  return { outcome, logBytes: summary.bytes, logTruncated: summary.truncated, usageJson: usage, resultJson: result };
}

// The scheduler of record for plugin jobs (issue 27 section 4): every fire time of a job runs once
// across replicas, no two runs of a job overlap, and a run whose replica died is taken over.
//
// Each tick of every replica:
//  1. Fire: due schedules are claimed with FOR UPDATE SKIP LOCKED; in the same transaction the run of
//     the fire time is inserted (ON CONFLICT DO NOTHING: one row per job and fire time, and none while
//     a run of the job is queued or running) and next_fire_at moves past now. This is the routines'
//     exactly-once machinery (modules/routines/scheduler.ts), on the routines' cron parser.
//  2. Claim: queued runs, and running runs whose lease lapsed, are claimed (SKIP LOCKED) up to this
//     replica's free slots: status running, attempt + 1, a lease of `leaseSec` in this replica's name.
//     A lapsed lease means its replica died (kill -9, lost host): the run is taken over, same row and
//     fire time, with the next attempt number; after MAX_ATTEMPTS attempts it fails instead.
//  3. Run: the worker gets `invoke` kind `job` with `{ fireAt, trigger }` and `{ jobRunId, attempt }`
//     (its idempotency keys), deadline the job's timeoutSec. The lease is renewed every third of its
//     length while it runs; the outcome is recorded only while the lease is still this attempt's.
//
// Catch-up: fire times that passed while no replica ran (or while the job's previous run was still
// going) do not each fire: a due schedule fires once, for its latest tick at or before now, and moves
// to the first tick after now. A run still queued or running when a fire time comes means that fire
// time does not run at all (no overlap, no backlog).
//
// A replica that finds its lease gone (it stalled past the lease, and another replica took the run
// over) stops that worker, so the old attempt cannot run alongside the new one. One that stops
// (rolling restart) stops the workers of its runs and hands the runs back at once; a restart of the
// same replica takes over its previous life's runs without waiting for their leases.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { pluginCompanyEnablements, pluginJobRuns, pluginJobSchedules, plugins } from '../../db/schema/index.ts';
import type { PluginManifest } from '../../modules/plugins/manifest.ts';
import type { PluginJobRunRow } from '../../modules/plugins/jobs.ts';
import { BridgeError } from '../../modules/plugins/worker/errors.ts';
import type { PluginWorkers } from '../../modules/plugins/worker/host.ts';
import { latestTick, nextTick } from '../../modules/routines/schedule.ts';
import type { ReplicaIdentity } from '../replica.ts';

/** Schedules claimed per transaction; the pass repeats while a batch comes back full. */
const DUE_BATCH = 100;
/** A run is tried at most this many times (the first start plus takeovers) before it fails. */
export const MAX_ATTEMPTS = 3;
/** The sweep of runs no replica will claim runs every this many ticks. */
const SWEEP_EVERY_TICKS = 20;

export interface PluginJobsOptions {
  db: Db;
  workers: PluginWorkers;
  identity: ReplicaIdentity;
  /** The run lease; renewed every third of it, taken over this long after its replica died. */
  leaseSec: number;
  /** How often due schedules and claimable runs are looked for. */
  tickMs: number;
  /** Job runs this replica runs at once. */
  maxRunning: number;
  logger: Logger;
}

export interface PluginJobs {
  stop(): Promise<void>;
}

const ownerOf = (identity: ReplicaIdentity) => `${identity.replica}:${identity.boot}`;

/**
 * Fires the due schedules: one run row per due schedule, for its latest tick at or before `now`, and
 * next_fire_at past `now`, in one transaction per batch. Returns how many runs were recorded.
 */
export async function fireDueJobs(db: Db, now = new Date()): Promise<number> {
  let recorded = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const due = await tx
        .select({
          schedule: pluginJobSchedules,
          pluginStatus: plugins.status,
          consent: pluginCompanyEnablements.status,
        })
        .from(pluginJobSchedules)
        .innerJoin(plugins, eq(plugins.id, pluginJobSchedules.pluginId))
        .leftJoin(
          pluginCompanyEnablements,
          and(
            eq(pluginCompanyEnablements.pluginId, pluginJobSchedules.pluginId),
            eq(pluginCompanyEnablements.companyId, pluginJobSchedules.companyId),
          ),
        )
        .where(sql`${pluginJobSchedules.nextFireAt} is not null and ${pluginJobSchedules.nextFireAt} <= ${now}`)
        .orderBy(pluginJobSchedules.nextFireAt)
        .limit(DUE_BATCH)
        .for('update', { of: pluginJobSchedules, skipLocked: true });
      let runs = 0;
      for (const { schedule, pluginStatus, consent } of due) {
        const { pluginId, companyId, jobKey, cron, timezone, nextFireAt } = schedule;
        const key = and(
          eq(pluginJobSchedules.pluginId, pluginId),
          eq(pluginJobSchedules.companyId, companyId),
          eq(pluginJobSchedules.jobKey, jobKey),
        );
        // Not runnable (a change the schedule sync has not caught up with): it waits, undue, for the sync.
        if (pluginStatus !== 'ready' || consent !== 'enabled' || nextFireAt === null) {
          await tx.update(pluginJobSchedules).set({ nextFireAt: null }).where(key);
          continue;
        }
        const latest = latestTick(cron, timezone, now);
        const fireAt = latest && latest > nextFireAt ? latest : nextFireAt;
        await tx
          .update(pluginJobSchedules)
          .set({ nextFireAt: nextTick(cron, timezone, now), updatedAt: now })
          .where(key);
        const inserted = await tx
          .insert(pluginJobRuns)
          .values({ pluginId, companyId, jobKey, fireAt, trigger: 'schedule' })
          .onConflictDoNothing()
          .returning({ id: pluginJobRuns.id });
        runs += inserted.length;
      }
      return { claimed: due.length, runs };
    });
    recorded += batch.runs;
    if (batch.claimed < DUE_BATCH) return recorded;
  }
}

/** The SQL condition that the run's plugin may run for its company now. */
const runnable = sql`exists (
  select 1 from ${plugins} join ${pluginCompanyEnablements} on ${pluginCompanyEnablements.pluginId} = ${plugins.id}
  where ${plugins.id} = ${pluginJobRuns.pluginId} and ${pluginCompanyEnablements.companyId} = ${pluginJobRuns.companyId}
    and ${plugins.status} = 'ready' and ${pluginCompanyEnablements.status} = 'enabled')`;

/**
 * Claims up to `limit` runs for `owner`: queued ones, and running ones whose lease lapsed before their
 * last attempt (taken over: attempt + 1), of plugins that may run for their company.
 */
export async function claimJobRuns(db: Db, owner: string, leaseSec: number, limit: number): Promise<PluginJobRunRow[]> {
  if (limit <= 0) return [];
  const result = await db.execute<{ id: string }>(sql`
    update ${pluginJobRuns} r
    set status = 'running', attempt = r.attempt + 1, lease_owner = ${owner},
        lease_expires_at = now() + make_interval(secs => ${leaseSec}), started_at = now(), finished_at = null, error = null
    from (
      select id from ${pluginJobRuns}
      where status in ('queued', 'running')
        and (status = 'queued' or (lease_expires_at < now() and attempt < ${MAX_ATTEMPTS}))
        and ${runnable}
      order by fire_at
      limit ${limit}
      for update skip locked
    ) claimed
    where r.id = claimed.id
    returning r.id`);
  const ids = result.rows.map((row) => String(row.id));
  if (ids.length === 0) return [];
  return db.select().from(pluginJobRuns).where(inArray(pluginJobRuns.id, ids));
}

/** Ends what no replica will claim: runs whose lease lapsed on their last attempt, queued runs of a plugin that no longer runs for the company. */
export async function sweepJobRuns(db: Db): Promise<void> {
  await db
    .update(pluginJobRuns)
    .set({
      status: 'failed',
      error: sql`'its replica stopped answering during attempt ' || ${pluginJobRuns.attempt} || ' of ' || ${MAX_ATTEMPTS}::int || ': given up'`,
      finishedAt: sql`now()`,
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(
      sql`${pluginJobRuns.status} = 'running' and ${pluginJobRuns.leaseExpiresAt} < now() and ${pluginJobRuns.attempt} >= ${MAX_ATTEMPTS}`,
    );
  await db
    .update(pluginJobRuns)
    .set({ status: 'cancelled', error: 'the plugin no longer runs for this company', finishedAt: sql`now()` })
    .where(sql`${pluginJobRuns.status} = 'queued' and not ${runnable}`);
}

export async function startPluginJobs(opts: PluginJobsOptions): Promise<PluginJobs> {
  const { db, workers, logger, leaseSec } = opts;
  const owner = ownerOf(opts.identity);
  const running = new Map<string, { run: PluginJobRunRow; done: Promise<void> }>();
  let stopped = false;

  // This replica's previous life cannot be running anything: its runs are claimable at once.
  await db
    .update(pluginJobRuns)
    .set({ leaseExpiresAt: sql`now()` })
    .where(
      sql`${pluginJobRuns.status} = 'running' and ${pluginJobRuns.leaseOwner} like ${`${opts.identity.replica}:%`} and ${pluginJobRuns.leaseOwner} <> ${owner}`,
    );

  const mine = (run: PluginJobRunRow) =>
    and(
      eq(pluginJobRuns.id, run.id),
      eq(pluginJobRuns.status, 'running'),
      eq(pluginJobRuns.leaseOwner, owner),
      eq(pluginJobRuns.attempt, run.attempt),
    );

  const execute = async (run: PluginJobRunRow) => {
    let lost = false;
    const renew = setInterval(
      () => {
        db.update(pluginJobRuns)
          .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${leaseSec})` })
          .where(mine(run))
          .returning({ id: pluginJobRuns.id })
          .then(async (rows) => {
            if (rows.length > 0 || stopped || lost) return;
            lost = true;
            logger.warn({ runId: run.id, attempt: run.attempt }, 'plugin jobs: lease lost; stopping the worker');
            await workers.stopWorker(run.pluginId, run.companyId);
          })
          .catch((err) => logger.warn({ err, runId: run.id }, 'plugin jobs: renewing a lease failed'));
      },
      (leaseSec * 1000) / 3,
    );
    let outcome: { status: 'succeeded' | 'failed'; error: string | null };
    try {
      const [plugin] = await db
        .select({ manifest: plugins.manifest })
        .from(plugins)
        .where(eq(plugins.id, run.pluginId));
      const job = (plugin?.manifest as PluginManifest | undefined)?.jobs.find((j) => j.key === run.jobKey);
      if (!job) outcome = { status: 'failed', error: `the plugin no longer declares job ${run.jobKey}` };
      else {
        await workers.invoke(run.pluginId, run.companyId, {
          kind: 'job',
          key: run.jobKey,
          input: { fireAt: run.fireAt.toISOString(), trigger: run.trigger },
          cause: null,
          context: { jobRunId: run.id, attempt: run.attempt },
          timeoutMs: job.timeoutSec * 1000,
        });
        outcome = { status: 'succeeded', error: null };
      }
    } catch (err) {
      outcome = {
        status: 'failed',
        error: err instanceof BridgeError ? `${err.code}: ${err.message}` : (err as Error).message,
      };
    } finally {
      clearInterval(renew);
    }
    // A stopping replica hands its runs back (stop()); a lost lease is another attempt's to record.
    if (stopped || lost) return;
    // A run cut short because the plugin was turned off for the company (or on the instance) is cancelled, not failed.
    const status = sql`case when ${outcome.status} = 'failed' and not ${runnable} then 'cancelled' else ${outcome.status} end`;
    await db
      .update(pluginJobRuns)
      .set({ status, error: outcome.error, finishedAt: sql`now()`, leaseOwner: null, leaseExpiresAt: null })
      .where(mine(run));
  };

  const start = (run: PluginJobRunRow) => {
    const done = execute(run)
      .catch((err) => logger.warn({ err, runId: run.id }, 'plugin jobs: recording a run failed'))
      .finally(() => running.delete(run.id));
    running.set(run.id, { run, done });
  };

  let ticks = 0;
  const tick = async () => {
    if (ticks++ % SWEEP_EVERY_TICKS === 0) await sweepJobRuns(db);
    await fireDueJobs(db);
    const claimed = await claimJobRuns(db, owner, leaseSec, opts.maxRunning - running.size);
    for (const run of claimed) {
      if (!stopped) {
        start(run);
        continue;
      }
      // Claimed as the replica began to stop: back to the queue, as if never claimed.
      await db
        .update(pluginJobRuns)
        .set({ status: 'queued', attempt: run.attempt - 1, leaseOwner: null, leaseExpiresAt: null, startedAt: null })
        .where(mine(run));
    }
  };

  let ticking: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (stopped) return;
    ticking ??= tick()
      .catch((err) => logger.warn({ err }, 'engine: plugin job tick failed'))
      .finally(() => (ticking = null));
  }, opts.tickMs);

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await ticking?.catch(() => undefined);
      // The runs in flight stop with their workers and are handed back: another replica (or this
      // one's next start) takes each over, attempt + 1, without waiting for its lease.
      const inFlight = [...running.values()];
      await Promise.all(inFlight.map(({ run }) => workers.stopWorker(run.pluginId, run.companyId)));
      await Promise.all(inFlight.map(({ done }) => done));
      for (const { run } of inFlight)
        await db
          .update(pluginJobRuns)
          .set({ leaseExpiresAt: sql`now()` })
          .where(mine(run))
          .catch((err) => logger.warn({ err, runId: run.id }, 'plugin jobs: handing a run back failed'));
    },
  };
}

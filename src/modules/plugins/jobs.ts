// Plugin jobs as companies and their boards see them (issue 27 section 4): the schedule rows that
// follow each company's consent, the declared jobs with their next fire time and last run, a job's
// recent runs, and a manual trigger. The scheduler of record, which claims due schedules and runs
// the runs under a lease, is the engine's (src/engine/plugins/jobs.ts).
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../core/context.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { companyFor } from '../../core/permissions.ts';
import type { DbOrTx } from '../../db/client.ts';
import {
  pluginCompanyEnablements,
  pluginJobRuns,
  pluginJobSchedules,
  plugins,
  type PluginJobRunStatus,
  type PluginJobTrigger,
} from '../../db/schema/index.ts';
import { nextTick } from '../routines/schedule.ts';
import type { PluginManifest } from './manifest.ts';

const jobsOf = (plugin: typeof plugins.$inferSelect) => (plugin.manifest as PluginManifest).jobs;

export type PluginJobRunRow = typeof pluginJobRuns.$inferSelect;
export type PluginJobScheduleRow = typeof pluginJobSchedules.$inferSelect;

/** A job's runs listed at most this many at a time. */
export const MAX_JOB_RUNS_LISTED = 100;

/**
 * Brings the plugin's schedule rows in line with its manifest and consents: one row per declared job
 * for each company whose enablement is `enabled` while the plugin is `ready` on the instance, and none
 * otherwise (disable, upgrade_pending, instance disable). A row whose cron and timezone are unchanged
 * keeps its next fire time; a new or changed one fires next at the expression's first tick after now.
 * Called in the transaction of each change (company enable and disable, upgrade, instance status).
 */
export async function syncJobSchedules(tx: DbOrTx, pluginId: string, now = new Date()): Promise<void> {
  const [plugin] = await tx.select().from(plugins).where(eq(plugins.id, pluginId));
  if (!plugin) return;
  const jobs = jobsOf(plugin);
  const companies =
    plugin.status === 'ready' && jobs.length > 0
      ? (
          await tx
            .select({ companyId: pluginCompanyEnablements.companyId })
            .from(pluginCompanyEnablements)
            .where(and(eq(pluginCompanyEnablements.pluginId, pluginId), eq(pluginCompanyEnablements.status, 'enabled')))
        ).map((e) => e.companyId)
      : [];
  const existing = await tx.select().from(pluginJobSchedules).where(eq(pluginJobSchedules.pluginId, pluginId));
  const keyOf = (companyId: string, jobKey: string) => `${companyId}/${jobKey}`;
  const wanted = new Map(
    companies.flatMap((companyId) => jobs.map((job) => [keyOf(companyId, job.key), { companyId, job }])),
  );
  for (const row of existing) {
    const want = wanted.get(keyOf(row.companyId, row.jobKey));
    if (!want)
      await tx
        .delete(pluginJobSchedules)
        .where(
          and(
            eq(pluginJobSchedules.pluginId, pluginId),
            eq(pluginJobSchedules.companyId, row.companyId),
            eq(pluginJobSchedules.jobKey, row.jobKey),
          ),
        );
    else if (row.cron === want.job.cron && row.timezone === want.job.timezone && row.nextFireAt !== null)
      wanted.delete(keyOf(row.companyId, row.jobKey));
  }
  for (const { companyId, job } of wanted.values()) {
    const values = {
      cron: job.cron,
      timezone: job.timezone,
      nextFireAt: nextTick(job.cron, job.timezone, now),
      updatedAt: now,
    };
    await tx
      .insert(pluginJobSchedules)
      .values({ pluginId, companyId, jobKey: job.key, ...values })
      .onConflictDoUpdate({
        target: [pluginJobSchedules.pluginId, pluginJobSchedules.companyId, pluginJobSchedules.jobKey],
        set: values,
      });
  }
}

export interface PluginJobView {
  key: string;
  cron: string;
  timezone: string;
  timeoutSec: number;
  /** Null while the company has the plugin off, or when the expression has no tick left. */
  nextFireAt: Date | null;
  lastRun: PluginJobRunRow | null;
}

async function pluginFor(ctx: Ctx, pluginId: string) {
  const [plugin] = await ctx.db.select().from(plugins).where(eq(plugins.id, pluginId));
  if (!plugin) throw notFound('plugin');
  return plugin;
}

/** The jobs the plugin declares, as they stand for the company: schedule, next fire time, last run. */
export async function listJobs(ctx: Ctx, pluginId: string, companyId: string): Promise<PluginJobView[]> {
  const company = await companyFor(ctx, 'plugin.readJobs', companyId, {});
  const plugin = await pluginFor(ctx, pluginId);
  const jobs = jobsOf(plugin);
  if (jobs.length === 0) return [];
  const where = and(eq(pluginJobSchedules.pluginId, pluginId), eq(pluginJobSchedules.companyId, company.id));
  const schedules = await ctx.db.select().from(pluginJobSchedules).where(where);
  // The newest run of each declared job (the job index serves each lookup).
  const lastRuns = await ctx.db
    .selectDistinctOn([pluginJobRuns.jobKey])
    .from(pluginJobRuns)
    .where(
      and(
        eq(pluginJobRuns.pluginId, pluginId),
        eq(pluginJobRuns.companyId, company.id),
        inArray(
          pluginJobRuns.jobKey,
          jobs.map((j) => j.key),
        ),
      ),
    )
    .orderBy(pluginJobRuns.jobKey, desc(pluginJobRuns.createdAt), desc(pluginJobRuns.id));
  return jobs.map((job) => ({
    key: job.key,
    cron: job.cron,
    timezone: job.timezone,
    timeoutSec: job.timeoutSec,
    nextFireAt: schedules.find((s) => s.jobKey === job.key)?.nextFireAt ?? null,
    lastRun: lastRuns.find((r) => r.jobKey === job.key) ?? null,
  }));
}

function declaredJob(plugin: typeof plugins.$inferSelect, jobKey: string) {
  const job = jobsOf(plugin).find((j) => j.key === jobKey);
  if (!job) throw notFound('job');
  return job;
}

/** A job's recent runs for the company, newest first. */
export async function listJobRuns(
  ctx: Ctx,
  pluginId: string,
  companyId: string,
  jobKey: string,
  limit: number,
): Promise<PluginJobRunRow[]> {
  const company = await companyFor(ctx, 'plugin.readJobs', companyId, {});
  declaredJob(await pluginFor(ctx, pluginId), jobKey);
  return ctx.db
    .select()
    .from(pluginJobRuns)
    .where(
      and(
        eq(pluginJobRuns.pluginId, pluginId),
        eq(pluginJobRuns.companyId, company.id),
        eq(pluginJobRuns.jobKey, jobKey),
      ),
    )
    .orderBy(desc(pluginJobRuns.createdAt), desc(pluginJobRuns.id))
    .limit(Math.min(limit, MAX_JOB_RUNS_LISTED));
}

/**
 * Queues a manual run of the job for the company (fire time: now); a replica's engine claims it
 * within its tick. 409 while the plugin does not run for the company, or while a run of the job is
 * queued or running (no overlap: `details.runId` names it).
 */
export async function triggerJob(
  ctx: Ctx,
  pluginId: string,
  companyId: string,
  jobKey: string,
): Promise<PluginJobRunRow> {
  const company = await companyFor(ctx, 'plugin.triggerJob', companyId, {});
  const plugin = await pluginFor(ctx, pluginId);
  declaredJob(plugin, jobKey);
  const [enablement] = await ctx.db
    .select({ status: pluginCompanyEnablements.status })
    .from(pluginCompanyEnablements)
    .where(and(eq(pluginCompanyEnablements.pluginId, pluginId), eq(pluginCompanyEnablements.companyId, company.id)));
  if (plugin.status !== 'ready') throw conflict(`plugin ${plugin.pluginKey} is ${plugin.status} on this instance`);
  if (enablement?.status !== 'enabled')
    throw conflict(`plugin ${plugin.pluginKey} is not enabled for this company: its board enables it first`);
  const trigger: PluginJobTrigger = 'manual';
  const [run] = await ctx.db
    .insert(pluginJobRuns)
    .values({ pluginId, companyId: company.id, jobKey, fireAt: sql`now()`, trigger })
    .onConflictDoNothing()
    .returning();
  if (run) return run;
  const live: PluginJobRunStatus[] = ['queued', 'running'];
  const [current] = await ctx.db
    .select({ id: pluginJobRuns.id, status: pluginJobRuns.status })
    .from(pluginJobRuns)
    .where(
      and(
        eq(pluginJobRuns.pluginId, pluginId),
        eq(pluginJobRuns.companyId, company.id),
        eq(pluginJobRuns.jobKey, jobKey),
        inArray(pluginJobRuns.status, live),
      ),
    );
  throw conflict(
    current
      ? `a run of job ${jobKey} is ${current.status}: a job runs once at a time, try again when it has finished`
      : `a run of job ${jobKey} was recorded at this very moment: try again`,
    { runId: current?.id ?? null },
  );
}

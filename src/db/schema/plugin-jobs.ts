// Plugin jobs (issue 27 section 4): the host is the scheduler of record. A schedule row exists for
// each job a plugin declares, per company that turned the plugin on, while the plugin may run there;
// its next_fire_at is what the engine's scheduler claims (src/engine/plugins/jobs.ts). Each fire time
// has one run row ever (unique per job and fire time), and a job has at most one queued or running
// run (the partial unique index): no fire time runs twice, no two runs of a job overlap. A replica
// runs a run under a lease; another takes it over, same row and fire time, attempt + 1, when the
// lease lapses. Both tables go with the plugin (uninstall) and with the company.
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';
import { plugins } from './plugins.ts';

export const pluginJobSchedules = pgTable(
  'plugin_job_schedules',
  {
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    jobKey: text('job_key').notNull(),
    /** The manifest's cron and timezone when the row was written (an upgrade that changes them recomputes nextFireAt). */
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    /** The next fire time; null when the expression has none left. */
    nextFireAt: ts('next_fire_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.pluginId, t.companyId, t.jobKey] }),
    index('plugin_job_schedules_due_idx').on(t.nextFireAt).where(sql`${t.nextFireAt} is not null`),
    index('plugin_job_schedules_company_idx').on(t.companyId),
  ],
);

export const PLUGIN_JOB_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type PluginJobRunStatus = (typeof PLUGIN_JOB_RUN_STATUSES)[number];
export const PLUGIN_JOB_TRIGGERS = ['schedule', 'manual'] as const;
export type PluginJobTrigger = (typeof PLUGIN_JOB_TRIGGERS)[number];

export const pluginJobRuns = pgTable(
  'plugin_job_runs',
  {
    id: id(),
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    jobKey: text('job_key').notNull(),
    /** The fire time the run stands for (a manual run: when it was asked for). */
    fireAt: ts('fire_at').notNull(),
    trigger: text('trigger').$type<PluginJobTrigger>().notNull(),
    status: text('status').$type<PluginJobRunStatus>().notNull().default('queued'),
    /** Attempts started: 0 while queued, 1 for the first, +1 for each takeover after a lease lapsed. */
    attempt: integer('attempt').notNull().default(0),
    /** `<replica>:<boot>` of the replica running it (engine/replica.ts). */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: ts('lease_expires_at'),
    /** When the current attempt started. */
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('plugin_job_runs_fire_uq').on(t.pluginId, t.companyId, t.jobKey, t.fireAt),
    uniqueIndex('plugin_job_runs_live_uq')
      .on(t.pluginId, t.companyId, t.jobKey)
      .where(sql`${t.status} in ('queued', 'running')`),
    // What the runner claims: queued runs, and running ones whose lease may have lapsed.
    index('plugin_job_runs_claim_idx').on(t.leaseExpiresAt).where(sql`${t.status} in ('queued', 'running')`),
    index('plugin_job_runs_job_idx').on(t.pluginId, t.companyId, t.jobKey, t.createdAt.desc(), t.id.desc()),
  ],
);

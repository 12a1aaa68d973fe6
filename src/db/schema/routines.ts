// Routines: recurring or externally triggered work. A routine run creates (or links) an execution
// issue assigned to the routine's agent. The routine_runs table is also the queue of runs still to
// be decided (status `received`): a run is recorded first, then decided in its own transaction, so a
// crash in between leaves a row the scheduler's sweep finishes instead of a lost fire.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { agents } from './agents.ts';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';
import { issues } from './issues.ts';
import { goals, projects } from './work.ts';

export interface RoutineVariable {
  name: string;
  label: string | null;
  type: 'text' | 'number' | 'boolean';
  required: boolean;
  defaultValue: string | number | boolean | null;
}

export const routines = pgTable(
  'routines',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    assigneeAgentId: uuid('assignee_agent_id').references(() => agents.id, { onDelete: 'set null' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    goalId: uuid('goal_id').references(() => goals.id, { onDelete: 'set null' }),
    parentIssueId: uuid('parent_issue_id').references(() => issues.id, { onDelete: 'set null' }),
    priority: text('priority').notNull().default('medium'),
    status: text('status').notNull().default('active'), // active | paused | archived
    concurrencyPolicy: text('concurrency_policy').notNull().default('coalesce_if_active'),
    catchUpPolicy: text('catch_up_policy').notNull().default('skip_missed'),
    variables: jsonb('variables').$type<RoutineVariable[]>().notNull().default([]),
    createdByAgentId: uuid('created_by_agent_id').references(() => agents.id, { onDelete: 'set null' }),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The list: newest update first, keyset on (updated_at, id).
    index('routines_company_updated_idx').on(t.companyId, t.updatedAt.desc(), t.id.desc()),
    index('routines_assignee_idx').on(t.assigneeAgentId),
  ],
);

export const routineTriggers = pgTable(
  'routine_triggers',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    routineId: uuid('routine_id')
      .notNull()
      .references(() => routines.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(), // schedule | webhook | api
    label: text('label'),
    enabled: boolean('enabled').notNull().default(true),
    cronExpression: text('cron_expression'),
    timezone: text('timezone'),
    // The next tick to fire; null whenever the trigger cannot fire (not a schedule, disabled, or its
    // routine not active), so the scheduler's due scan reads only triggers that will fire.
    nextRunAt: ts('next_run_at'),
    publicId: text('public_id'),
    signingMode: text('signing_mode'),
    replayWindowSec: integer('replay_window_sec'),
    // The webhook secret, sealed (AES-256-GCM) under the master key; the version is bumped on each
    // rotation and bound into the seal.
    secretVersion: integer('secret_version').notNull().default(0),
    secretIv: text('secret_iv'),
    secretAuthTag: text('secret_auth_tag'),
    secretCiphertext: text('secret_ciphertext'),
    lastFiredAt: ts('last_fired_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('routine_triggers_routine_idx').on(t.routineId, t.createdAt),
    uniqueIndex('routine_triggers_public_id_uq').on(t.publicId),
    index('routine_triggers_due_idx').on(t.nextRunAt).where(sql`${t.nextRunAt} is not null`),
  ],
);

export const routineRuns = pgTable(
  'routine_runs',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    routineId: uuid('routine_id')
      .notNull()
      .references(() => routines.id, { onDelete: 'cascade' }),
    triggerId: uuid('trigger_id').references(() => routineTriggers.id, { onDelete: 'set null' }),
    source: text('source').notNull(), // manual | api | schedule | webhook
    status: text('status').notNull().default('received'),
    triggerPayload: jsonb('trigger_payload').$type<Record<string, unknown>>(),
    // What the caller supplied: variables and per-run overrides (assignee, project, workspace).
    request: jsonb('request').$type<Record<string, unknown>>().notNull().default({}),
    idempotencyKey: text('idempotency_key'),
    // The tick a schedule run stands for: with the trigger, the run's exactly-once key.
    scheduledFor: ts('scheduled_for'),
    linkedIssueId: uuid('linked_issue_id').references(() => issues.id, { onDelete: 'set null' }),
    coalescedIntoRunId: uuid('coalesced_into_run_id').references((): AnyPgColumn => routineRuns.id, {
      onDelete: 'set null',
    }),
    failureReason: text('failure_reason'),
    // Decisions that failed for a reason other than the rules (a lost connection): retried by the sweep.
    attempts: integer('attempts').notNull().default(0),
    requestedByActorType: text('requested_by_actor_type').notNull(),
    requestedByActorId: text('requested_by_actor_id').notNull(),
    completedAt: ts('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('routine_runs_routine_idx').on(t.routineId, t.createdAt.desc(), t.id.desc()),
    index('routine_runs_received_idx').on(t.createdAt).where(sql`${t.status} = 'received'`),
    index('routine_runs_linked_issue_idx').on(t.linkedIssueId).where(sql`${t.status} = 'issue_created'`),
    uniqueIndex('routine_runs_tick_uq').on(t.triggerId, t.scheduledFor).where(sql`${t.scheduledFor} is not null`),
    uniqueIndex('routine_runs_idempotency_uq')
      .on(t.routineId, t.source, sql`coalesce(${t.triggerId}::text, '')`, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
  ],
);

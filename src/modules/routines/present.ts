// What routine responses show. Webhook secrets and public ids never appear here: the secret and
// the URL (which carries the public id, the only credential of a `none` trigger) are shown once, by
// the create and rotate responses. Trigger payloads are redacted like approval payloads: they are
// written by outside senders and may carry credentials.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { redact } from '../../lib/redact.ts';
import { chainLinkResponse } from '../agents/present.ts';
import { issueSummaryResponse } from '../issues/present.ts';
import { projectSummaryResponse } from '../projects/present.ts';
import { ISSUE_PRIORITIES } from '../../core/statuses.ts';
import type { RoutineRun } from './routine-runs.ts';
import {
  CATCH_UP_POLICIES,
  CONCURRENCY_POLICIES,
  ROUTINE_STATUSES,
  RUN_SOURCES,
  RUN_STATUSES,
  TRIGGER_KINDS,
} from './schemas.ts';
import type { Routine, RoutineTrigger } from './service.ts';
import { SIGNING_MODES } from './signing.ts';

const variableResponse = z.object({
  name: z.string(),
  label: z.string().nullable(),
  type: z.enum(['text', 'number', 'boolean']),
  required: z.boolean(),
  defaultValue: z.union([z.string(), z.number(), z.boolean()]).nullable(),
});

export const triggerResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    routineId: uuidOut(),
    kind: z.enum(TRIGGER_KINDS),
    label: z.string().nullable(),
    enabled: z.boolean(),
    cronExpression: z.string().nullable().describe('schedule kind'),
    timezone: z.string().nullable().describe('schedule kind'),
    nextRunAt: timestampOut()
      .nullable()
      .describe('schedule kind: the next tick; null while the trigger is disabled or the routine is not active'),
    signingMode: z.enum(SIGNING_MODES).nullable().describe('webhook kind'),
    replayWindowSec: z.number().int().nullable().describe('webhook kind'),
    lastFiredAt: timestampOut().nullable().describe('when a run was last recorded against the trigger'),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('A routine trigger (webhook secret and URL omitted: they are shown only on create and rotate)');
export type TriggerResponse = z.output<typeof triggerResponse>;

export function presentTrigger(t: RoutineTrigger): TriggerResponse {
  return {
    id: t.id,
    companyId: t.companyId,
    routineId: t.routineId,
    kind: t.kind as TriggerResponse['kind'],
    label: t.label,
    enabled: t.enabled,
    cronExpression: t.cronExpression,
    timezone: t.timezone,
    nextRunAt: t.nextRunAt,
    signingMode: t.signingMode as TriggerResponse['signingMode'],
    replayWindowSec: t.replayWindowSec,
    lastFiredAt: t.lastFiredAt,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export const issuedTriggerResponse = triggerResponse
  .extend({
    webhookUrl: z.string().optional().describe('webhook kind: where to POST; shown on create and rotate only'),
    webhookSecret: z
      .string()
      .nullable()
      .optional()
      .describe(
        'webhook kind: the secret (null for signing mode `none`); shown on create and rotate only, never again',
      ),
  })
  .describe('The trigger; a webhook trigger with its URL and secret, shown this once');
export type IssuedTriggerResponse = z.output<typeof issuedTriggerResponse>;

export function presentIssuedTrigger(
  t: RoutineTrigger,
  webhook: { url: string; secret: string | null } | null,
): IssuedTriggerResponse {
  return { ...presentTrigger(t), ...(webhook && { webhookUrl: webhook.url, webhookSecret: webhook.secret }) };
}

export const runResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    routineId: uuidOut(),
    triggerId: uuidOut().nullable(),
    source: z.enum(RUN_SOURCES),
    status: z.enum(RUN_STATUSES),
    triggerPayload: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        'what the fire carried (redacted); schedule runs: their tick; skipped catch-up runs: missedTicks and the range',
      ),
    scheduledFor: timestampOut().nullable().describe('schedule runs: the tick this run stands for'),
    idempotencyKey: z.string().nullable(),
    linkedIssueId: uuidOut()
      .nullable()
      .describe('the execution issue: created (issue_created), joined (coalesced) or the open one that caused a skip'),
    coalescedIntoRunId: uuidOut().nullable().describe('coalesced runs: the run that created the open execution issue'),
    failureReason: z.string().nullable().describe('why a run failed or was skipped'),
    completedAt: timestampOut().nullable(),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('A routine run');
export type RunResponse = z.output<typeof runResponse>;

export function presentRun(r: RoutineRun): RunResponse {
  return {
    id: r.id,
    companyId: r.companyId,
    routineId: r.routineId,
    triggerId: r.triggerId,
    source: r.source as RunResponse['source'],
    status: r.status as RunResponse['status'],
    triggerPayload: r.triggerPayload === null ? null : (redact(r.triggerPayload) as Record<string, unknown>),
    scheduledFor: r.scheduledFor,
    idempotencyKey: r.idempotencyKey,
    linkedIssueId: r.linkedIssueId,
    coalescedIntoRunId: r.coalescedIntoRunId,
    failureReason: r.failureReason,
    completedAt: r.completedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const routineResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    title: z.string(),
    description: z.string().nullable(),
    assigneeAgentId: uuidOut().nullable(),
    projectId: uuidOut().nullable(),
    goalId: uuidOut().nullable(),
    parentIssueId: uuidOut().nullable(),
    priority: z.enum(ISSUE_PRIORITIES),
    status: z.enum(ROUTINE_STATUSES),
    concurrencyPolicy: z.enum(CONCURRENCY_POLICIES),
    catchUpPolicy: z.enum(CATCH_UP_POLICIES),
    variables: z.array(variableResponse),
    createdByAgentId: uuidOut().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('A routine');
export type RoutineResponse = z.output<typeof routineResponse>;

export function presentRoutine(r: Routine): RoutineResponse {
  return {
    id: r.id,
    companyId: r.companyId,
    title: r.title,
    description: r.description,
    assigneeAgentId: r.assigneeAgentId,
    projectId: r.projectId,
    goalId: r.goalId,
    parentIssueId: r.parentIssueId,
    priority: r.priority as RoutineResponse['priority'],
    status: r.status as RoutineResponse['status'],
    concurrencyPolicy: r.concurrencyPolicy as RoutineResponse['concurrencyPolicy'],
    catchUpPolicy: r.catchUpPolicy as RoutineResponse['catchUpPolicy'],
    variables: r.variables,
    createdByAgentId: r.createdByAgentId,
    createdByUserId: r.createdByUserId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const routineListItemResponse = routineResponse
  .extend({
    triggers: z
      .array(
        triggerResponse.pick({ id: true, kind: true, label: true, enabled: true, nextRunAt: true, lastFiredAt: true }),
      )
      .describe('trigger summaries'),
    latestRun: runResponse
      .pick({ id: true, source: true, status: true, linkedIssueId: true, failureReason: true, createdAt: true })
      .nullable(),
    activeExecutionIssue: issueSummaryResponse.nullable().describe('the open execution issue, if any'),
  })
  .describe('A routine with its trigger summaries, latest run and open execution issue');

export const routineDetailResponse = routineResponse
  .extend({
    project: projectSummaryResponse.nullable(),
    assignedAgent: chainLinkResponse.nullable().describe('the assignee in brief'),
    parentIssue: issueSummaryResponse.nullable(),
    triggers: z.array(triggerResponse),
    recentRuns: z.array(runResponse).describe('the latest 10 runs, newest first'),
    activeExecutionIssue: issueSummaryResponse.nullable(),
  })
  .describe('A routine with its project, agent, parent issue, triggers, recent runs and open execution issue');

export const firedResponse = z
  .object({ runId: uuidOut(), status: z.enum(RUN_STATUSES) })
  .describe("The run the fire recorded (a repeated delivery: the first one's)");

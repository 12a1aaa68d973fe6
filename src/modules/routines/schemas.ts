import { z } from 'zod';
import { FREEFORM_CONFIG_BYTES, FREEFORM_PAYLOAD_BYTES, freeformObject } from '../../core/json.ts';
import { idempotencyKeyField } from '../../core/fields.ts';
import { ISSUE_PRIORITIES } from '../../core/statuses.ts';
import { DEFAULT_REPLAY_WINDOW_SEC, SIGNING_MODES } from './signing.ts';

export const ROUTINE_STATUSES = ['active', 'paused', 'archived'] as const;
export const CONCURRENCY_POLICIES = ['coalesce_if_active', 'skip_if_active', 'always_enqueue'] as const;
export const CATCH_UP_POLICIES = ['skip_missed', 'enqueue_missed_with_cap'] as const;
export const TRIGGER_KINDS = ['schedule', 'webhook', 'api'] as const;
export const RUN_STATUSES = ['received', 'coalesced', 'skipped', 'issue_created', 'completed', 'failed'] as const;
export const RUN_SOURCES = ['manual', 'api', 'schedule', 'webhook'] as const;
export type RoutineStatus = (typeof ROUTINE_STATUSES)[number];
export type RunSource = (typeof RUN_SOURCES)[number];

/** Bounds of what a routine may grow to (docs/routines.md). */
export const MAX_VARIABLES = 50;
export const MAX_TRIGGERS_PER_ROUTINE = 20;
export const MAX_VARIABLE_VALUE_CHARS = 10_000;
export const DEFAULT_RUNS_PAGE = 50;
export const MAX_RUNS_PAGE = 200;
export const DEFAULT_ROUTINES_PAGE = 100;
export const MAX_ROUTINES_PAGE = 500;

const SAME_COMPANY = "must belong to the routine's company (422 otherwise)";
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const variableValue = z.union([z.string().max(MAX_VARIABLE_VALUE_CHARS), z.number().finite(), z.boolean()]);

const variable = z.object({
  name: z
    .string()
    .regex(VARIABLE_NAME, 'letters, digits and underscores, not starting with a digit, at most 64')
    .describe('referenced as `{{name}}` in title and description'),
  label: z.string().trim().max(200).nullish().describe('what a person filling it in sees'),
  type: z.enum(['text', 'number', 'boolean']).default('text').describe('`text` (default), `number` or `boolean`'),
  required: z.boolean().default(false).describe('a run must have a value: given, or the default'),
  defaultValue: variableValue
    .nullish()
    .describe(`used when a run gives none (text up to ${MAX_VARIABLE_VALUE_CHARS} characters)`),
});

const variables = z
  .array(variable)
  .max(MAX_VARIABLES)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [index, v] of list.entries()) {
      if (seen.has(v.name))
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate variable ${v.name}` });
      seen.add(v.name);
    }
  })
  .describe(
    `at most ${MAX_VARIABLES}, unique names; every \`{{name}}\` in title and description must be declared here (422)`,
  );

const routineFields = {
  title: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe("1 to 500 characters; may use `{{variable}}` placeholders. The execution issue's title"),
  description: z
    .string()
    .max(200_000)
    .nullish()
    .describe("markdown up to 200,000 characters; may use placeholders. The execution issue's description"),
  assigneeAgentId: z
    .uuid()
    .nullish()
    .describe(
      `the agent that does the work; ${SAME_COMPANY}, neither terminated nor pending_approval. An agent caller may name only itself (403). Without one the routine is paused`,
    ),
  projectId: z.uuid().nullish().describe(`project of the execution issues; ${SAME_COMPANY}`),
  goalId: z.uuid().nullish().describe(`goal of the execution issues; ${SAME_COMPANY}`),
  parentIssueId: z.uuid().nullish().describe(`parent of the execution issues; ${SAME_COMPANY}`),
  priority: z.enum(ISSUE_PRIORITIES).optional().describe('priority of the execution issues (default `medium`)'),
  status: z
    .enum(ROUTINE_STATUSES)
    .optional()
    .describe(
      'default `active` with an assignee, `paused` without; `active` needs an assignee (422); `archived` is final',
    ),
  concurrencyPolicy: z
    .enum(CONCURRENCY_POLICIES)
    .optional()
    .describe(
      'what a run does while an execution issue of the routine is still open: `coalesce_if_active` (default: link to it), `skip_if_active`, `always_enqueue` (a new issue each time)',
    ),
  catchUpPolicy: z
    .enum(CATCH_UP_POLICIES)
    .optional()
    .describe(
      'what happens to schedule ticks missed while no server ran: `skip_missed` (default: recorded as one skipped run) or `enqueue_missed_with_cap` (the latest 10 fire)',
    ),
  variables: variables.optional(),
};

export const createRoutineBody = z.object(routineFields).meta({
  examples: [
    {
      title: 'Weekly dependency report for {{repo}}',
      description: 'List outdated dependencies of {{repo}} and open an issue per major upgrade.',
      assigneeAgentId: '7d9f7c8e-5d43-4b7a-9f1e-2c1d2b3a4f5e',
      concurrencyPolicy: 'skip_if_active',
      variables: [{ name: 'repo', label: 'Repository', type: 'text', required: true, defaultValue: 'web' }],
    },
  ],
});
export type CreateRoutine = z.output<typeof createRoutineBody>;

export const patchRoutineBody = z
  .object(routineFields)
  .partial()
  .meta({ examples: [{ status: 'paused' }] });
export type PatchRoutine = z.output<typeof patchRoutineBody>;

const triggerFields = {
  label: z.string().trim().max(200).nullish().describe('a name for people'),
  enabled: z
    .boolean()
    .optional()
    .describe('default true; a schedule trigger cannot be enabled while a required variable has no default (422)'),
  cronExpression: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('schedule kind: 5 fields (minute hour day month weekday), or 6 with seconds first; validated (422)'),
  timezone: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'schedule kind: IANA zone the expression is read in (default `UTC`); daylight-saving transitions follow the zone',
    ),
  signingMode: z
    .enum(SIGNING_MODES)
    .optional()
    .describe('webhook kind: `bearer` (default), `hmac_sha256`, `codehost_hmac` or `none`'),
  replayWindowSec: z
    .number()
    .int()
    .min(30)
    .max(86_400)
    .optional()
    .describe(
      `webhook kind: 30 to 86400 (default ${DEFAULT_REPLAY_WINDOW_SEC}); how far X-Service-Timestamp may be from the server clock under codehost_hmac`,
    ),
};

export const createTriggerBody = z
  .object({
    kind: z
      .enum(TRIGGER_KINDS)
      .describe('`schedule` (cron), `webhook` (public URL) or `api` (POST /api/routines/{routineId}/run only)'),
    ...triggerFields,
  })
  .superRefine((body, ctx) => {
    if (body.kind === 'schedule' && !body.cronExpression)
      ctx.addIssue({ code: 'custom', path: ['cronExpression'], message: 'a schedule trigger needs cronExpression' });
    if (body.kind !== 'schedule')
      for (const field of ['cronExpression', 'timezone'] as const)
        if (body[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: `${field} is for schedule triggers only` });
    if (body.kind !== 'webhook')
      for (const field of ['signingMode', 'replayWindowSec'] as const)
        if (body[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: `${field} is for webhook triggers only` });
  })
  .meta({
    examples: [
      { kind: 'schedule', label: 'Mondays 9:00', cronExpression: '0 9 * * 1', timezone: 'Europe/Berlin' },
      { kind: 'webhook', signingMode: 'hmac_sha256' },
    ],
  });
export type CreateTrigger = z.output<typeof createTriggerBody>;

export const patchTriggerBody = z.object(triggerFields).meta({ examples: [{ enabled: false }] });
export type PatchTrigger = z.output<typeof patchTriggerBody>;

export const runRoutineBody = z
  .object({
    source: z.enum(['manual', 'api']).optional().describe('default `manual`'),
    triggerId: z
      .uuid()
      .optional()
      .describe(
        'a trigger of this routine (403 otherwise), enabled (409 otherwise): the run is recorded against it and sets its lastFiredAt',
      ),
    payload: freeformObject({ maxBytes: FREEFORM_PAYLOAD_BYTES })
      .nullish()
      .describe('recorded on the run as triggerPayload (at most 256 KiB, 32 levels)'),
    variables: z
      .record(z.string().max(64), variableValue)
      .optional()
      .describe(
        'values by variable name, over the defaults; an undeclared name, a wrong type or a missing required value is 422',
      ),
    projectId: z
      .uuid()
      .optional()
      .describe(`project of this run's execution issue instead of the routine's; ${SAME_COMPANY}`),
    assigneeAgentId: z
      .uuid()
      .optional()
      .describe(
        `agent of this run's execution issue instead of the routine's; ${SAME_COMPANY}. An agent caller may name only itself`,
      ),
    idempotencyKey: idempotencyKeyField(
      'a repeat with the same key, source and trigger returns the first run (202) instead of a second one',
    ),
    executionWorkspaceId: z.uuid().optional().describe(`workspace of the execution issue; ${SAME_COMPANY}`),
    executionWorkspacePreference: z.string().trim().max(100).optional(),
    executionWorkspaceSettings: freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES }).optional(),
  })
  .nullish()
  .meta({ examples: [{ variables: { repo: 'api' }, idempotencyKey: 'release-2026-11-23' }] });
export type RunRoutineBody = NonNullable<z.output<typeof runRoutineBody>>;

export const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
export const routineParams = z.object({ routineId: z.uuid().describe('routine UUID') });
export const triggerParams = z.object({ triggerId: z.uuid().describe('trigger UUID') });
export const publicParams = z.object({
  publicId: z.string().min(1).max(100).describe("the public id in the trigger's webhookUrl"),
});

export const listRoutinesQuery = z.object({
  status: z.enum(ROUTINE_STATUSES).optional().describe('only routines in this status'),
  assigneeAgentId: z.uuid().optional().describe('only routines of this agent'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_ROUTINES_PAGE)
    .default(DEFAULT_ROUTINES_PAGE)
    .describe(`page size, 1 to ${MAX_ROUTINES_PAGE} (default ${DEFAULT_ROUTINES_PAGE})`),
  before: z.uuid().optional().describe('a routine id from the previous page: continue after it (keyset pagination)'),
});
export type ListRoutinesQuery = z.output<typeof listRoutinesQuery>;

export const listRunsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_RUNS_PAGE)
    .default(DEFAULT_RUNS_PAGE)
    .describe(`1 to ${MAX_RUNS_PAGE} (default ${DEFAULT_RUNS_PAGE})`),
});

export const MAX_PREVIEW_TICKS = 20;
export const schedulePreviewQuery = z.object({
  cronExpression: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('5 fields (minute hour day month weekday), or 6 with seconds first'),
  timezone: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .default('UTC')
    .describe('IANA zone the expression is read in (default `UTC`)'),
  count: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PREVIEW_TICKS)
    .default(5)
    .describe(`how many fire times, 1 to ${MAX_PREVIEW_TICKS} (default 5)`),
  after: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('list the fire times strictly after this instant (default: now)'),
});

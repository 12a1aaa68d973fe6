import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, timestampOut, type ErrorStatus } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { runRoutine } from './fire.ts';
import {
  issuedTriggerResponse,
  presentIssuedTrigger,
  presentRoutine,
  presentRun,
  routineDetailResponse,
  routineListItemResponse,
  routineResponse,
  runResponse,
  presentTrigger,
} from './present.ts';
import { listRoutines, routineDetail } from './read.ts';
import { listRuns } from './routine-runs.ts';
import {
  companyParams,
  createRoutineBody,
  schedulePreviewQuery,
  MAX_PREVIEW_TICKS,
  createTriggerBody,
  listRoutinesQuery,
  listRunsQuery,
  MAX_TRIGGERS_PER_ROUTINE,
  patchRoutineBody,
  patchTriggerBody,
  routineParams,
  runRoutineBody,
  triggerParams,
} from './schemas.ts';
import { upcomingTicks } from './schedule.ts';
import {
  createRoutine,
  createTrigger,
  deleteTrigger,
  requireRoutine,
  requireTrigger,
  rotateWebhookSecret,
  updateRoutine,
  updateTrigger,
  type IssuedWebhook,
} from './service.ts';

const tags = ['routines'];
const COMPANY_ERRORS: [ErrorStatus, string][] = [
  [403, "the company is not one of the caller's"],
  [404, 'no such company'],
];
const ROUTINE_ERRORS: [ErrorStatus, string][] = [
  [403, 'the routine belongs to another company'],
  [404, 'no such routine'],
];
const OWN_ONLY = 'Agents manage only their own routines (those assigned to them): 403 otherwise.';
const REFS =
  '`projectId`, `goalId`, `parentIssueId` and the assignee must belong to the company, and the assignee must be neither terminated nor pending_approval (422); every `{{variable}}` in title and description must be declared (422).';

export function registerRoutineRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const { masterKey } = deps.config;

  /** Where a webhook trigger is fired: BOARDROOM_PUBLIC_URL when set, else the origin the caller used. */
  const webhookUrl = (request: FastifyRequest, publicId: string) =>
    `${deps.config.publicUrl ?? `${request.protocol}://${request.host}`}/api/routine-triggers/public/${publicId}/fire`;
  const issued = (request: FastifyRequest, { trigger, publicId, secret }: IssuedWebhook) =>
    presentIssuedTrigger(trigger, trigger.kind === 'webhook' ? { url: webhookUrl(request, publicId), secret } : null);

  app.get(
    '/api/companies/:companyId/routines',
    {
      schema: {
        tags,
        summary: "List a company's routines",
        description: `Newest update first (trigger changes count as updates), each with trigger summaries, its latest run and its open execution issue. \`limit\` 1 to 500 (default 100); continue with \`before\` = the last id of a page. Any caller with access to the company.`,
        params: companyParams,
        querystring: listRoutinesQuery,
        response: {
          200: z.array(routineListItemResponse).describe('The routines, newest update first'),
          ...authenticated(),
          ...errors(...COMPANY_ERRORS),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return listRoutines(db, company.id, request.query);
    },
  );

  app.get(
    '/api/companies/:companyId/routines/schedule-preview',
    {
      schema: {
        tags,
        summary: 'Preview the fire times of a cron schedule',
        description: [
          `The next \`count\` (1 to ${MAX_PREVIEW_TICKS}, default 5) fire times of \`cronExpression\` read in \`timezone\`, strictly after \`after\` (default now),`,
          "computed by the scheduler's own cron reading (croner, daylight-saving rules included), so the first one is what a schedule trigger saved now gets as `nextRunAt`.",
          'An invalid expression or unknown timezone is 422 with the reason, as on a trigger. Fewer times when the expression runs out. Any caller with access to the company; nothing is saved.',
        ].join(' '),
        params: companyParams,
        querystring: schedulePreviewQuery,
        response: {
          200: z
            .object({
              cronExpression: z.string(),
              timezone: z.string(),
              fireTimes: z.array(timestampOut()).describe('ascending'),
            })
            .describe('The upcoming fire times'),
          ...authenticated(),
          ...errors(...COMPANY_ERRORS, [422, 'invalid cron expression or unknown timezone']),
        },
      },
    },
    async (request) => {
      await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const { cronExpression, timezone, count, after } = request.query;
      const fireTimes = upcomingTicks(cronExpression, timezone, after ? new Date(after) : new Date(), count);
      return { cronExpression, timezone, fireTimes };
    },
  );

  app.post(
    '/api/companies/:companyId/routines',
    {
      schema: {
        tags,
        summary: 'Create a routine',
        description: [
          'Status `active` by default with an assignee, `paused` without one (explicit `active` without an assignee is 422).',
          'Agents create routines only for themselves: `assigneeAgentId` defaults to the calling agent, another agent is 403.',
          REFS,
        ].join(' '),
        params: companyParams,
        body: createRoutineBody,
        response: {
          201: routineResponse,
          ...authenticated(),
          ...errors(
            ...COMPANY_ERRORS.map(([s, m]): [ErrorStatus, string] =>
              s === 403 ? [403, `${m}, or an agent names another agent as assignee`] : [s, m],
            ),
            [
              422,
              'a reference outside the company, an unassignable agent, an undeclared variable, or active without an assignee',
            ],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return reply
        .status(201)
        .send(presentRoutine(await createRoutine(contextOf(db, request), company.id, request.body)));
    },
  );

  app.get(
    '/api/routines/:routineId',
    {
      schema: {
        tags,
        summary: 'Get a routine',
        description:
          "The routine with its project, assigned agent, parent issue, triggers, 10 most recent runs and open execution issue. Any caller with access to its company; another company's routine is 403.",
        params: routineParams,
        response: { 200: routineDetailResponse, ...authenticated(), ...errors(...ROUTINE_ERRORS) },
      },
    },
    async (request) => routineDetail(db, await requireRoutine(db, actorOf(request), request.params.routineId)),
  );

  app.patch(
    '/api/routines/:routineId',
    {
      schema: {
        tags,
        summary: 'Update a routine',
        description: [
          `Any create field. ${OWN_ONLY} An agent cannot reassign a routine to another agent (403).`,
          'Status: `paused` stops its schedules; back to `active` (needs an assignee, 422) they restart from now: ticks during the pause are not owed.',
          'Clearing the assignee of an active routine pauses it. An `archived` routine never fires and cannot be reactivated (409).',
          `${REFS} Replacing \`variables\` while an enabled schedule trigger exists needs a default for every required variable (422).`,
        ].join(' '),
        params: routineParams,
        body: patchRoutineBody,
        response: {
          200: routineResponse,
          ...authenticated(),
          ...errors(
            [403, "another company's routine, an agent's routine not its own, or reassignment by an agent"],
            [404, 'no such routine'],
            [409, 'status change of an archived routine'],
            [422, 'a rule of the routine (see description)'],
          ),
        },
      },
    },
    async (request) => {
      const routine = await requireRoutine(db, actorOf(request), request.params.routineId);
      return presentRoutine(await updateRoutine(contextOf(db, request), routine.id, request.body));
    },
  );

  app.post(
    '/api/routines/:routineId/triggers',
    {
      schema: {
        tags,
        summary: 'Add a trigger to a routine',
        description: [
          `${OWN_ONLY} At most ${MAX_TRIGGERS_PER_ROUTINE} triggers per routine (422); an archived routine takes none (409).`,
          '`schedule`: `cronExpression` (validated, 422) read in `timezone` (IANA, default UTC); `nextRunAt` is computed in that zone. It cannot be enabled while a required variable has no default (422).',
          '`webhook`: `signingMode` (default bearer) and `replayWindowSec`; the response carries `webhookUrl` and `webhookSecret`, shown this once (the URL is built from BOARDROOM_PUBLIC_URL when set).',
          '`api`: fired only through POST /api/routines/{routineId}/run with its `triggerId`; no public URL.',
        ].join(' '),
        params: routineParams,
        body: createTriggerBody,
        response: {
          201: issuedTriggerResponse,
          ...authenticated(),
          ...errors(
            [403, "another company's routine, or an agent's routine not its own"],
            [404, 'no such routine'],
            [409, 'the routine is archived'],
            [422, 'invalid cron or timezone, required variables without default, or too many triggers'],
          ),
        },
      },
    },
    async (request, reply) => {
      const routine = await requireRoutine(db, actorOf(request), request.params.routineId);
      const created = await createTrigger(contextOf(db, request), masterKey, routine.id, request.body);
      return reply.status(201).header('cache-control', 'no-store').send(issued(request, created));
    },
  );

  app.patch(
    '/api/routine-triggers/:triggerId',
    {
      schema: {
        tags,
        summary: 'Update a routine trigger',
        description: [
          `\`label\`, \`enabled\`; \`cronExpression\`, \`timezone\` (schedule); \`signingMode\`, \`replayWindowSec\` (webhook). A field of another kind is 422. ${OWN_ONLY}`,
          'A schedule change recomputes `nextRunAt`; enabling a schedule needs defaults for the required variables (422).',
          'Switching a webhook from `none` to a signed mode issues a secret: the response then carries `webhookSecret` (once).',
        ].join(' '),
        params: triggerParams,
        body: patchTriggerBody,
        response: {
          200: issuedTriggerResponse,
          ...authenticated(),
          ...errors(
            [403, "another company's trigger, or an agent's routine not its own"],
            [404, 'no such trigger'],
            [422, 'invalid cron or timezone, a field of another kind, or required variables without default'],
          ),
        },
      },
    },
    async (request, reply) => {
      const trigger = await requireTrigger(db, actorOf(request), request.params.triggerId);
      const { trigger: after, issuedSecret } = await updateTrigger(
        contextOf(db, request),
        masterKey,
        trigger.id,
        request.body,
      );
      if (!issuedSecret) return presentTrigger(after);
      return reply
        .header('cache-control', 'no-store')
        .send(issued(request, { trigger: after, publicId: after.publicId ?? '', secret: issuedSecret }));
    },
  );

  app.delete(
    '/api/routine-triggers/:triggerId',
    {
      schema: {
        tags,
        summary: 'Delete a routine trigger',
        description: `Permanent. Runs recorded against it stay, with \`triggerId\` null. A deleted webhook's URL answers 404 at once. ${OWN_ONLY}`,
        params: triggerParams,
        response: {
          204: z.null().describe('Deleted'),
          ...authenticated(),
          ...errors([403, "another company's trigger, or an agent's routine not its own"], [404, 'no such trigger']),
        },
      },
    },
    async (request, reply) => {
      const trigger = await requireTrigger(db, actorOf(request), request.params.triggerId);
      await deleteTrigger(contextOf(db, request), trigger);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/routine-triggers/:triggerId/rotate-secret',
    {
      schema: {
        tags,
        summary: "Rotate a webhook trigger's secret",
        description: `Webhook triggers only (422 otherwise). The previous secret stops working at once; the URL stays. Returns the fresh \`webhookUrl\` and \`webhookSecret\`, shown this once. ${OWN_ONLY}`,
        params: triggerParams,
        response: {
          200: issuedTriggerResponse,
          ...authenticated(),
          ...errors(
            [403, "another company's trigger, or an agent's routine not its own"],
            [404, 'no such trigger'],
            [422, 'not a webhook trigger'],
          ),
        },
      },
    },
    async (request, reply) => {
      const trigger = await requireTrigger(db, actorOf(request), request.params.triggerId);
      return reply
        .header('cache-control', 'no-store')
        .send(issued(request, await rotateWebhookSecret(contextOf(db, request), masterKey, trigger)));
    },
  );

  app.post(
    '/api/routines/:routineId/run',
    {
      schema: {
        tags,
        summary: 'Run a routine now',
        description: [
          `Records a run (source \`manual\` by default, or \`api\`) and decides it at once; 202 with the run: \`issue_created\` (a new execution issue, its agent woken with source automation), \`coalesced\` or \`skipped\` (concurrency policy against the open execution issue), or \`failed\` with \`failureReason\`. ${OWN_ONLY}`,
          '`triggerId` must be a trigger of this routine (403) and enabled (409); the run is recorded against it and sets its `lastFiredAt`.',
          'A repeated `idempotencyKey` (same source and trigger) returns the first run. Paused routines may be run by hand; archived ones are 409, and so is a routine without assignee when the body names none.',
          "`variables` are merged over the defaults (422 for an undeclared name, a wrong type or a missing required value). `assigneeAgentId` (agents: only themselves, 403), `projectId` and the execution workspace fields apply to this run's issue only (422 outside the company).",
        ].join(' '),
        params: routineParams,
        body: runRoutineBody,
        response: {
          202: runResponse,
          ...authenticated(),
          ...errors(
            [
              403,
              "another company's routine, an agent's routine not its own, an agent naming another assignee, or a trigger of another routine",
            ],
            [404, 'no such routine'],
            [409, 'the trigger is disabled, the routine is archived, or it has no assignee'],
            [422, 'variables, or a reference outside the company'],
          ),
        },
      },
    },
    async (request, reply) => {
      const routine = await requireRoutine(db, actorOf(request), request.params.routineId);
      return reply.status(202).send(presentRun(await runRoutine(contextOf(db, request), routine, request.body ?? {})));
    },
  );

  app.get(
    '/api/routines/:routineId/runs',
    {
      schema: {
        tags,
        summary: "List a routine's runs",
        description: 'Newest first; `limit` 1 to 200 (default 50). Any caller with access to the company.',
        params: routineParams,
        querystring: listRunsQuery,
        response: {
          200: z.array(runResponse).describe('The runs, newest first'),
          ...authenticated(),
          ...errors(...ROUTINE_ERRORS),
        },
      },
    },
    async (request) => {
      const routine = await requireRoutine(db, actorOf(request), request.params.routineId);
      return (await listRuns(db, routine.id, request.query.limit)).map(presentRun);
    },
  );
}

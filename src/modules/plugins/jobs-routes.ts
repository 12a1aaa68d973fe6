// Plugin jobs over HTTP (issue 27 sections 1 and 4): a company's view of a plugin's declared jobs,
// their recent runs, and a manual trigger. The engine runs the runs (src/engine/plugins/jobs.ts).
import { z } from 'zod';
import { PLUGIN_JOB_RUN_STATUSES, PLUGIN_JOB_TRIGGERS } from '../../db/schema/index.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, timestampOut, uuidOut } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import {
  listJobRuns,
  listJobs,
  MAX_JOB_RUNS_LISTED,
  type PluginJobRunRow,
  type PluginJobView,
  triggerJob,
} from './jobs.ts';

const tags = ['plugins'];
const DEFAULT_RUNS_LISTED = 20;

const jobParams = z.object({
  pluginId: z.uuid().describe('plugin UUID (the record `id`)'),
  jobId: z.string().min(1).max(64).describe("the job's key in the manifest"),
});
const companyQuery = z.object({ companyId: z.uuid().describe('the company the jobs run for') });
const runsQuery = companyQuery.extend({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_JOB_RUNS_LISTED)
    .default(DEFAULT_RUNS_LISTED)
    .describe(`1 to ${MAX_JOB_RUNS_LISTED} (default ${DEFAULT_RUNS_LISTED})`),
});
const triggerBody = z.object({ companyId: z.uuid().describe('the company to run the job for') }).strict();

const jobRunResponse = z.object({
  id: uuidOut().describe('the run id: the worker gets it as `context.jobRunId`'),
  pluginId: uuidOut(),
  companyId: uuidOut(),
  jobKey: z.string(),
  fireAt: timestampOut().describe('the fire time it stands for (a manual run: when it was asked for)'),
  trigger: z.enum(PLUGIN_JOB_TRIGGERS),
  status: z.enum(PLUGIN_JOB_RUN_STATUSES),
  attempt: z
    .number()
    .int()
    .describe('attempts started: 0 while queued, 1 for the first, one more for each takeover after its replica died'),
  startedAt: timestampOut().nullable().describe('when the current attempt started'),
  finishedAt: timestampOut().nullable(),
  error: z.string().nullable().describe('why it failed or was cancelled (`TIMEOUT: ...`, the worker’s error)'),
  createdAt: timestampOut(),
});

const jobResponse = z.object({
  key: z.string(),
  cron: z.string(),
  timezone: z.string(),
  timeoutSec: z.number().int(),
  nextFireAt: timestampOut()
    .nullable()
    .describe('the next fire time; null while the plugin does not run for the company, or when the cron has none left'),
  lastRun: jobRunResponse.nullable(),
});

function presentRun(run: PluginJobRunRow): z.input<typeof jobRunResponse> {
  return {
    id: run.id,
    pluginId: run.pluginId,
    companyId: run.companyId,
    jobKey: run.jobKey,
    fireAt: run.fireAt,
    trigger: run.trigger,
    status: run.status,
    attempt: run.attempt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    error: run.error,
    createdAt: run.createdAt,
  };
}

const presentJob = (job: PluginJobView): z.input<typeof jobResponse> => ({
  ...job,
  lastRun: job.lastRun ? presentRun(job.lastRun) : null,
});

const FORBIDDEN: [403, string] = [403, "an agent caller, or the company is not one of the caller's"];
const NO_JOB: [404, string] = [404, 'no such company, plugin or job'];

export function registerPluginJobRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/plugins/:pluginId/jobs',
    {
      schema: {
        tags,
        summary: "A plugin's jobs for a company",
        description:
          "The jobs the manifest declares, each with its cron, timezone, timeout, the company's next fire time and its last run. Board users of the company; agents 403.",
        params: jobParams.pick({ pluginId: true }),
        querystring: companyQuery,
        response: {
          200: z.array(jobResponse).describe('The declared jobs, in manifest order'),
          ...authenticated(),
          ...errors(FORBIDDEN, [404, 'no such company, or no plugin with this id']),
        },
      },
    },
    async (request) =>
      (await listJobs(contextOf(db, request), request.params.pluginId, request.query.companyId)).map(presentJob),
  );

  app.get(
    '/api/plugins/:pluginId/jobs/:jobId/runs',
    {
      schema: {
        tags,
        summary: "A plugin job's recent runs for a company",
        description: `Newest first, at most \`limit\` (1 to ${MAX_JOB_RUNS_LISTED}, default ${DEFAULT_RUNS_LISTED}). Each fire time has one run; a run taken over after its replica died keeps its row, with \`attempt\` counting. Board users of the company; agents 403.`,
        params: jobParams,
        querystring: runsQuery,
        response: {
          200: z.array(jobRunResponse).describe('The runs, newest first'),
          ...authenticated(),
          ...errors(FORBIDDEN, NO_JOB),
        },
      },
    },
    async (request) => {
      const { pluginId, jobId } = request.params;
      const { companyId, limit } = request.query;
      return (await listJobRuns(contextOf(db, request), pluginId, companyId, jobId, limit)).map(presentRun);
    },
  );

  app.post(
    '/api/plugins/:pluginId/jobs/:jobId/trigger',
    {
      schema: {
        tags,
        summary: 'Run a plugin job now',
        description:
          'Queues a manual run of the job for the company (its `fireAt` is now); a replica’s engine starts it within a second, as it does scheduled runs. A job runs once at a time: 409 while a run of it is queued or running (`details.runId` names it), or while the plugin does not run for the company. Board users of the company; agents 403.',
        params: jobParams,
        body: triggerBody,
        response: {
          202: z.object({ runId: uuidOut() }).describe('The run, queued'),
          ...authenticated(),
          ...errors(FORBIDDEN, NO_JOB, [
            409,
            'a run of the job is queued or running, or the plugin does not run for the company',
          ]),
        },
      },
    },
    async (request, reply) => {
      const { pluginId, jobId } = request.params;
      const run = await triggerJob(contextOf(db, request), pluginId, request.body.companyId, jobId);
      return reply.status(202).send({ runId: run.id });
    },
  );
}

// The heartbeat run routes: a run's detail, a company's runs, the run log (pages, and a live
// stream), cancel; and the runs that touched an issue (GET /api/issues/{issueId}/runs; the issues a
// run touched are the issues area's, issues/run-issues-routes.ts). Any caller with access to the run's company reads; cancel is
// the board's or the run's own agent's.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { MAX_READ_BYTES, readRunLog } from './run-log.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { openSseResponse } from '../../http/sse.ts';
import { requireIssueAccess } from '../../core/issue-access.ts';
import { cancelRunRequest } from './cancel.ts';
import { followRunLog, type LogStream, KEEPALIVE_MS, MAX_BUFFERED_BYTES } from './log-stream.ts';
import {
  presentRunDetail,
  presentRunListItem,
  presentRunSummary,
  runDetailResponse,
  runListItemResponse,
  runLogPageResponse,
  runStatus,
  runSummaryResponse,
  type RunLogPageResponse,
} from './present.ts';
import { isLiveRunStatus } from '../../core/statuses.ts';
import { runErrorCodeField } from '../../core/run-failures.ts';
import { listCompanyRuns, listIssueRuns, requireRunAccess, RUN_LIST_MAX, runLogMayGrow } from './service.ts';
import { limitQuery, runParams } from './schemas.ts';

const tags = ['runs'];
const MAX_OFFSET = 2 ** 31 - 1;
const offsetSchema = z.coerce.number().int().min(0).max(MAX_OFFSET);
const runErrors = () =>
  errors([403, 'the run belongs to another company'], [404, 'no such run (or the id is not a UUID)']);

export function registerRunRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/issues/:issueId/runs',
    {
      schema: {
        tags,
        summary: 'List the heartbeat runs that touched an issue',
        description: `Runs recorded against the issue (a run is recorded when it checks the issue out), newest first, up to \`limit\` (1 to ${RUN_LIST_MAX}, default 50). Any caller with access to the issue's company.`,
        params: z.object({
          issueId: z.string().trim().min(1).max(200).describe('issue UUID or identifier (`ACM-12`)'),
        }),
        querystring: limitQuery,
        response: {
          200: z.array(runSummaryResponse).describe('Run summaries, newest first'),
          ...authenticated(),
          ...errors([403, 'the issue belongs to another company'], [404, 'no such issue']),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return (await listIssueRuns(db, issue.id, request.query.limit)).map(presentRunSummary);
    },
  );

  app.get(
    '/api/heartbeat-runs/:runId',
    {
      schema: {
        tags,
        summary: 'Get a heartbeat run',
        description:
          "The run with its outcome (exit code, signal, error), its timing (lease, deadline) and the size of its log. Any caller with access to the run's company: its board members and its agents.",
        params: runParams,
        response: {
          200: runDetailResponse,
          ...authenticated(),
          ...runErrors(),
        },
      },
    },
    async (request) => presentRunDetail(await requireRunAccess(db, actorOf(request), request.params.runId)),
  );

  app.get(
    '/api/companies/:companyId/heartbeat-runs',
    {
      schema: {
        tags,
        summary: "List a company's heartbeat runs",
        description: [
          `The company's runs, newest first (by creation, then id), up to \`limit\` (1 to ${RUN_LIST_MAX}, default 50), optionally only those of one agent, one issue, one status or one errorCode.`,
          'To page, pass the `runId` of the last run of a page as `before`: the next page holds the runs older than it (an unknown `before` is 404).',
          'Any caller with access to the company: its board members and its agents.',
        ].join(' '),
        params: z.object({ companyId: z.uuid().describe('company UUID') }),
        querystring: limitQuery.extend({
          agentId: z.uuid().optional().describe('only the runs of this agent'),
          issueId: z.uuid().optional().describe('only the runs about this issue (the issue the run was woken for)'),
          status: runStatus.optional().describe('only the runs in this status'),
          errorCode: runErrorCodeField
            .optional()
            .describe(
              "only the runs that ended with this errorCode (see a run's `errorCode` for the list); another value is 400",
            ),
          before: z.uuid().optional().describe('a run id (the last of the previous page): only runs older than it'),
        }),
        response: {
          200: z.array(runListItemResponse).describe('Runs in brief, newest first'),
          ...authenticated(),
          ...errors(
            [403, "the company is not one of the caller's"],
            [404, 'no such company, or `before` names no run of this company'],
          ),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return (await listCompanyRuns(db, company.id, request.query)).map(presentRunListItem);
    },
  );

  app.get(
    '/api/heartbeat-runs/:runId/log',
    {
      schema: {
        tags,
        summary: 'Read a page of a run log',
        description: [
          'What the run printed (stdout and stderr interleaved, secret values masked as `***`), as UTF-8 text from the byte offset `offset`:',
          `at most \`limit\` bytes (1 to ${MAX_READ_BYTES}, default ${MAX_READ_BYTES}), never cutting a character (a page may be a few bytes shorter; limits below 4 are read as 4).`,
          'Ask again from `nextOffset` to read on; past the end the content is empty. `complete` says there is nothing more to read, ever.',
          '`stderr` lists the byte ranges of this page (absolute offsets, half-open `[from, to)`, clipped to the page, adjacent ones merged) that the run wrote on stderr; the rest is stdout (a log stored before streams were recorded reads as all stdout). A secret masked across a switch of streams is in the stream its first character came from.',
          "Any caller with access to the run's company. For a live run, `GET .../log/stream` follows the log as it grows.",
        ].join(' '),
        params: runParams,
        querystring: z.object({
          offset: offsetSchema.default(0).describe('byte offset to read from (default 0)'),
          limit: z.coerce
            .number()
            .int()
            .min(1)
            .max(MAX_READ_BYTES)
            .default(MAX_READ_BYTES)
            .describe(`bytes to read at most (default and maximum ${MAX_READ_BYTES})`),
        }),
        response: {
          200: runLogPageResponse,
          ...authenticated(),
          ...runErrors(),
        },
      },
    },
    async (request): Promise<RunLogPageResponse> => {
      const run = await requireRunAccess(db, actorOf(request), request.params.runId);
      const page = await readRunLog(db, run.id, request.query.offset, request.query.limit);
      // A run that ended elsewhere has its log size recorded late (or never, when its owner died).
      const logBytes = Math.max(run.logBytes, page.size);
      const finished = !isLiveRunStatus(run.status);
      return {
        runId: run.id,
        offset: page.offset,
        nextOffset: page.nextOffset,
        stderr: page.stderr,
        content: page.content,
        logBytes,
        truncated: run.logTruncated,
        finished,
        complete: finished && !runLogMayGrow(run) && page.nextOffset >= logBytes,
      };
    },
  );

  const streams = new Set<LogStream>();
  // Open streams would hold the server's close: they end first.
  app.addHook('preClose', (done) => {
    for (const stream of streams) stream.stop();
    done();
  });

  app.get(
    '/api/heartbeat-runs/:runId/log/stream',
    {
      schema: {
        tags,
        summary: 'Follow a run log live (Server-Sent Events)',
        description: [
          'A `text/event-stream` of the run log, from whichever replica runs it. It starts at the byte offset `offset`, or the `Last-Event-ID` header (a reconnecting EventSource sends it), or 0;',
          'sends what is stored, then follows as the run prints. Each `event: log` has `id: <byte offset after it>` and `data: {"offset": n, "content": "...", "stderr": [{"from": n, "to": n}]}` (UTF-8 text from byte `offset`;',
          '`stderr`: the byte ranges of this content, absolute and half-open, adjacent ones merged, that the run wrote on stderr, as in `GET .../log`; the rest is stdout).',
          'When the run is finished and all of its log was sent: `event: end` with the final status as data, then the stream closes (a finished run streams what it has and ends at once).',
          `A \`: keepalive\` comment comes every ${KEEPALIVE_MS / 1000} s. A client that falls more than ${MAX_BUFFERED_BYTES / 1024 / 1024} MiB behind is dropped (reconnect with Last-Event-ID).`,
          "Any caller with access to the run's company; errors before the stream starts are JSON.",
        ].join(' '),
        params: runParams,
        querystring: z.object({
          offset: offsetSchema.optional().describe('byte offset to start from (wins over Last-Event-ID)'),
        }),
        headers: z.object({
          'last-event-id': z
            .string()
            .regex(/^\d{1,10}$/)
            .optional()
            .describe('byte offset to resume from: the `id` of the last event received'),
        }),
        response: {
          200: {
            description: 'The event stream',
            content: {
              'text/event-stream': {
                schema: z.string().describe('`event: log` events, keepalive comments, then `event: end`'),
              },
            },
          },
          ...authenticated(),
          ...runErrors(),
        },
      },
    },
    async (request, reply) => {
      // Everything that can fail as JSON happens before the stream starts.
      const run = await requireRunAccess(db, actorOf(request), request.params.runId);
      const lastEventId = request.headers['last-event-id'];
      const from = request.query.offset ?? (lastEventId !== undefined ? Math.min(Number(lastEventId), MAX_OFFSET) : 0);
      const sink = openSseResponse(request, reply);
      if (!sink) return;
      const stream = followRunLog({
        db,
        notifications: deps.notifications,
        runId: run.id,
        from,
        sink,
        logger: request.log,
      });
      streams.add(stream);
      void stream.done.then(() => streams.delete(stream));
    },
  );

  app.post(
    '/api/heartbeat-runs/:runId/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a heartbeat run',
        description: [
          "Ends a live (queued or running) run as `cancelled` at once; the replica running it stops its process group (SIGTERM, SIGKILL after the agent's graceSec).",
          "The board (with access to the run's company) or the run's own agent; other agents get 403. A finished run is 409.",
        ].join(' '),
        params: runParams,
        response: {
          200: runDetailResponse.describe('The run, cancelled'),
          ...authenticated(),
          ...errors(
            [403, "the run belongs to another company, or the caller is an agent other than the run's"],
            [404, 'no such run (or the id is not a UUID)'],
            [409, 'the run has already finished'],
          ),
        },
      },
    },
    async (request) => presentRunDetail(await cancelRunRequest(contextOf(db, request), request.params.runId)),
  );
}

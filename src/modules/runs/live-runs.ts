// GET /api/companies/{companyId}/live-runs: what the company is doing right now, for the board's
// "Now" view. Every live (queued or running) run with its agent, its issue and the last line of its
// log, in one bounded query: the live runs come from the partial live-run index, and the log tail
// from the last two stored chunks of each (at most TAIL_CHARS characters of each), never the log.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { requireCompanyAccess } from '../../core/access.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, timestampOut, uuidOut } from '../../http/openapi.ts';
import { actorOf } from '../../http/request.ts';
import { LAST_LINE_MAX, lastLine } from './last-line.ts';

export const LIVE_RUNS_MAX = 100;
/** Characters read from the end of each of a run's last two log chunks: enough for a long line. */
const TAIL_CHARS = 4096;

const liveRunResponse = z
  .object({
    runId: uuidOut(),
    status: z.enum(['queued', 'running']),
    agentId: uuidOut(),
    agentName: z.string(),
    issueId: uuidOut()
      .nullable()
      .describe('the issue the run is about; null for a wake about no issue (or a hidden issue)'),
    issueIdentifier: z.string().nullable().describe('e.g. `ACM-12`'),
    issueTitle: z.string().nullable(),
    createdAt: timestampOut(),
    startedAt: timestampOut().nullable().describe('null while queued'),
    logBytes: z.number().int().describe('size of the log so far in bytes'),
    lastLogLine: z
      .string()
      .nullable()
      .describe(
        `the last non-blank line of the log, terminal escape sequences removed, at most ${LAST_LINE_MAX} characters; null before the first output`,
      ),
  })
  .describe('A live run with its agent, its issue and its last log line');

type LiveRun = z.output<typeof liveRunResponse>;

interface LiveRunRow extends Record<string, unknown> {
  id: string;
  status: 'queued' | 'running';
  agent_id: string;
  agent_name: string;
  issue_id: string | null;
  identifier: string | null;
  title: string | null;
  created_at: string | Date;
  started_at: string | Date | null;
  log_bytes: number;
  tail: string | null;
}

export async function listLiveRuns(db: DbOrTx, companyId: string, limit: number): Promise<LiveRun[]> {
  const result = await db.execute<LiveRunRow>(sql`
    select r.id, r.status, r.agent_id, a.name as agent_name, i.id as issue_id, i.identifier, i.title,
      r.created_at, r.started_at, r.log_bytes,
      (select string_agg(t.content, '' order by t.seq)
         from (select l.seq, right(l.content, ${TAIL_CHARS}) as content from heartbeat_run_log_chunks l
               where l.run_id = r.id order by l.seq desc limit 2) t) as tail
    from heartbeat_runs r
    join agents a on a.id = r.agent_id
    left join issues i on i.id = r.issue_id and i.hidden_at is null
    where r.company_id = ${companyId} and r.status in ('queued', 'running')
    order by r.created_at desc, r.id desc
    limit ${limit}`);
  return result.rows.map((row) => ({
    runId: row.id,
    status: row.status,
    agentId: row.agent_id,
    agentName: row.agent_name,
    issueId: row.issue_id,
    issueIdentifier: row.identifier,
    issueTitle: row.title,
    createdAt: new Date(row.created_at),
    startedAt: row.started_at === null ? null : new Date(row.started_at),
    logBytes: Number(row.log_bytes),
    lastLogLine: lastLine(row.tail),
  }));
}

export function registerLiveRunRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  app.get(
    '/api/companies/:companyId/live-runs',
    {
      schema: {
        tags: ['runs'],
        summary: "A company's live runs with their last log line",
        description: [
          `Every live (queued or running) run of the company, newest first, up to \`limit\` (1 to ${LIVE_RUNS_MAX}, default 50), each with its agent's name, its issue (identifier and title) and the last non-blank line of its log.`,
          "The line comes from the tail of the stored log (secret values already masked), so it trails the output by at most the log's store interval (250 ms).",
          'Any caller with access to the company: its board members and its agents.',
        ].join(' '),
        params: z.object({ companyId: z.uuid().describe('company UUID') }),
        querystring: z.object({
          limit: z.coerce
            .number()
            .int()
            .min(1)
            .max(LIVE_RUNS_MAX)
            .default(50)
            .describe(`runs returned, newest first: 1 to ${LIVE_RUNS_MAX} (default 50)`),
        }),
        response: {
          200: z.array(liveRunResponse).describe('Live runs, newest first'),
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return listLiveRuns(db, company.id, request.query.limit);
    },
  );
}

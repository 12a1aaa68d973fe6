// GET /api/companies/{companyId}/events: the company's live events as Server-Sent Events
// (./streams.ts says what is sent and how; ./read.ts the order and why it never skips an entry).
// Access is decided before the reply is taken over, so refusals are ordinary JSON errors.
import { z } from 'zod';
import { requireCompanyAccess } from '../../core/access.ts';
import { DomainError } from '../../core/errors.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf } from '../../http/request.ts';
import { openSseResponse } from '../../http/sse.ts';
import { DEFAULT_LIMITS, EventStreams } from './streams.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This replica's event streams (stats for tests and diagnostics). */
    eventStreams: EventStreams;
  }
}

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const resumeFrom = z.string().max(200).optional();
// Tells EventSource how long to wait before reconnecting after the stream ends.
const RETRY_MS = 2_000;

const DESCRIPTION = [
  "The company's events as a `text/event-stream` that stays open. Any caller with access to the company: its board members and its agents.",
  '',
  `- \`activity\`, with \`id\` = the entry id: each new activity entry, shaped as in \`GET /api/companies/{companyId}/activity\` (entries about hidden issues left out). Issue changes are the entries with \`entityType: "issue"\` (\`issue.created\`, \`issue.updated\`, ...); run starts and ends those with \`entityType: "heartbeat_run"\`.`,
  '- `run` `{runId, agentId, issueId, status}`: a run changed status (no id, not replayed: the `heartbeat_run.*` entries are the record).',
  "- `run_log` `{runId, offset, lastLine}`: the run's log grew to `offset` bytes; `lastLine` is its last non-blank line (terminal escapes removed, at most 300 characters; null before any), as `GET /api/companies/{companyId}/live-runs` shows it. Read the text from `GET /api/heartbeat-runs/{runId}/log`. At most one per run per second, with the latest offset and line.",
  `- \`reset\` \`{reason}\`: the stream cannot resume from the given id (\`unknown_last_event_id\`, or \`too_many_missed\`: more than ${DEFAULT_LIMITS.replayLimit} entries since); reload, the stream continues live.`,
  '- `ready` `{}`: the stream is set up; the entries missed since the given id (if any) come next, in order, then new ones.',
  '',
  `Resuming: \`Last-Event-ID\` (EventSource sends it on reconnect), or \`lastEventId\` in the query (a client that starts again with an id it kept), sends first the entries that came after that one in the stream, in order, then new ones; at most ${DEFAULT_LIMITS.replayLimit}, else \`reset\`. Any activity id of the company works (one read from the feed too): an entry the stream has not passed yet resumes a little earlier, so an entry may come twice, never be missed; apply entries by id. Without either, the stream starts live: exactly the entries committed after it started.`,
  'Entries come in the order of the transactions that wrote them, the same for every client on every replica; an entry is sent once every older transaction of this database has ended (usually within milliseconds), so none is ever skipped.',
  `A \`: keepalive\` comment every ${DEFAULT_LIMITS.keepaliveMs / 1000} s. Nothing is buffered for a slow client: while ${DEFAULT_LIMITS.maxBufferedBytes / 1024 / 1024} MiB wait unsent in its connection, entries wait in the database; a client that takes nothing for ${DEFAULT_LIMITS.stallMs / 1000} s, or lets ${(2 * DEFAULT_LIMITS.maxBufferedBytes) / 1024 / 1024} MiB pile up, is disconnected (it resumes with \`Last-Event-ID\`). Access is checked again every ${DEFAULT_LIMITS.recheckMs / 1000} s: a revoked credential, a locked-out agent or a lost membership ends the stream.`,
].join('\n');

export function registerEventRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const streams = new EventStreams(db, deps.notifications, app.log, deps.eventLimits);
  app.decorate('eventStreams', streams);
  // Before the server stops accepting: open streams would otherwise keep app.close() waiting.
  app.addHook('preClose', async () => streams.close());

  app.get(
    '/api/companies/:companyId/events',
    {
      schema: {
        tags: ['events'],
        summary: "Stream a company's live events (Server-Sent Events)",
        description: DESCRIPTION,
        params: companyParams,
        querystring: z.object({
          lastEventId: resumeFrom.describe('resume after this activity entry id (the `Last-Event-ID` header wins)'),
        }),
        headers: z.object({
          'last-event-id': resumeFrom.describe(
            'resume after this activity entry id (EventSource sends it on reconnect)',
          ),
        }),
        response: {
          200: {
            description: 'The event stream; it stays open',
            content: { 'text/event-stream': { schema: z.string().describe('Server-Sent Events') } },
          },
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const lastEventId = request.headers['last-event-id'] ?? request.query.lastEventId;
      const stillAllowed = async () => {
        const actor = await request.reauthenticate();
        if (!actor) return false;
        try {
          await requireCompanyAccess(db, actor, company.id);
          return true;
        } catch (err) {
          if (err instanceof DomainError) return false; // 403, or the company was deleted
          throw err;
        }
      };

      const res = openSseResponse(request, reply, { retryMs: RETRY_MS });
      if (res) streams.open(company.id, res, { lastEventId, stillAllowed });
    },
  );
}

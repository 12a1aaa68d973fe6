// GET /api/companies/{companyId}/inbox and POST /api/companies/{companyId}/inbox/read: the board
// user's inbox (./board.ts) and its read marks.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, timestampOut } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { FAILED_RUN_WINDOW_DAYS, INBOX_KIND_LIMIT, MARK_READ_MAX_KEYS, boardInbox, markInboxRead } from './board.ts';
import { INBOX_ITEM_KINDS, inboxResponse } from './board-present.ts';

const tags = ['inbox'];
const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const ITEM_KEY = new RegExp(
  `^(${INBOX_ITEM_KINDS.join('|')}):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
);
const BOARD_ONLY: [403, string] = [403, "the caller is an agent, or the company is not one of the caller's"];

const markReadBody = z
  .object({
    keys: z
      .array(
        z.string().regex(ITEM_KEY, 'an inbox item key: `<kind>:<uuid>`, kind one of ' + INBOX_ITEM_KINDS.join(', ')),
      )
      .min(1)
      .max(MARK_READ_MAX_KEYS)
      .describe(
        `item keys as GET .../inbox gives them (1 to ${MARK_READ_MAX_KEYS}); "mark all read" sends every key it shows`,
      ),
  })
  .meta({ examples: [{ keys: ['approval:3f0c1a5e-8d3b-4a47-9b0e-2f7a6f1d2c11'] }] });

export function registerBoardInboxRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/companies/:companyId/inbox',
    {
      schema: {
        tags,
        summary: "List what waits on the board in a company (the board user's inbox)",
        description: [
          'Board only. Pending and revision_requested approvals; failed or timed_out runs of the last',
          `${FAILED_RUN_WINDOW_DAYS} days that no later run of the same agent on the same issue has followed (waking the agent again clears them once its new run exists);`,
          'open budget incidents; open issues that are blocked or assigned to the caller. At most',
          `${INBOX_KIND_LIMIT} items of each kind, newest change first. Every item has a stable \`key\` and the caller's \`read\` flag:`,
          'an item is unread until the caller marks it read (POST .../inbox/read), and unread again once it changes after that mark.',
        ].join(' '),
        params: companyParams,
        response: { 200: inboxResponse, ...authenticated(), ...errors(BOARD_ONLY, [404, 'no such company']) },
      },
    },
    async (request) => {
      return boardInbox(contextOf(db, request), request.params.companyId);
    },
  );

  app.post(
    '/api/companies/:companyId/inbox/read',
    {
      schema: {
        tags,
        summary: 'Mark inbox items read',
        description: [
          'Board only. Marks the given items read for the calling board user, as of now (marking again moves the mark).',
          'Read items stay in GET .../inbox with `read: true` until they change again. A key that names no current item is stored all the same and changes nothing visible.',
        ].join(' '),
        params: companyParams,
        body: markReadBody,
        response: {
          200: z
            .object({ marked: z.number().int().describe('distinct keys marked'), readAt: timestampOut() })
            .describe('The marks, written'),
          ...authenticated(),
          ...errors(BOARD_ONLY, [404, 'no such company']),
        },
      },
    },
    async (request) => {
      return markInboxRead(contextOf(db, request), request.params.companyId, request.body.keys);
    },
  );
}

import { z } from 'zod';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';
import { commentBodyText } from '../comments/schemas.ts';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from '../../core/statuses.ts';

/** Issue list `limit`: SPEC says only "positive integer"; unset means 50, larger values are clamped to 500. */
export const DEFAULT_ISSUE_PAGE = 50;
export const MAX_ISSUE_PAGE = 500;
/** blockedByIssueIds / labelIds per issue; generous for real plans, small enough to validate in one query. */
const MAX_LINKED_IDS = 100;

const jsonObject = freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES });
const uuidSet = z
  .array(z.uuid())
  .max(MAX_LINKED_IDS)
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

const SAME_COMPANY = "must belong to the issue's company (422 otherwise)";

/**
 * A request example for a body with transforms (uuidSet): zod drops `examples` from the input JSON
 * schema of a transforming schema, while `x-examples` (an OpenAPI examples map) survives and
 * @fastify/swagger moves it onto the request's media object.
 */
const bodyExample = (name: string, summary: string, value: Record<string, unknown>) => ({
  'x-examples': { [name]: { summary, value } },
});

const issueFields = {
  title: z.string().trim().min(1).max(500).describe('1 to 500 characters'),
  description: z
    .string()
    .max(200_000)
    .nullish()
    .describe(
      'markdown, up to 200,000 characters. `#<project urlKey>` or `project://<projectId>` mentions appear in the detail as `mentionedProjects`; a `<plan>...</plan>` block or a `# Plan` section is served as `legacyPlanDocument` while the issue has no `plan` document',
    ),
  status: z
    .enum(ISSUE_STATUSES)
    .optional()
    .describe(
      'default `backlog`; `in_progress` is reached only through checkout (422 here). done/cancelled set `completedAt`/`cancelledAt`',
    ),
  priority: z.enum(ISSUE_PRIORITIES).optional().describe('default `medium`; lists are ordered by priority'),
  projectId: z.uuid().nullish().describe(`project UUID; ${SAME_COMPANY}`),
  goalId: z
    .uuid()
    .nullish()
    .describe(
      `goal UUID; ${SAME_COMPANY}. Without one the detail resolves the project's goal, else the company's default goal`,
    ),
  parentId: z
    .uuid()
    .nullish()
    .describe(`parent issue UUID; ${SAME_COMPANY}, never the issue itself or one of its descendants`),
  blockedByIssueIds: uuidSet
    .optional()
    .describe(
      `UUIDs of issues blocking this one (at most ${MAX_LINKED_IDS}); ${SAME_COMPANY}, no self-block, no cycles. On PATCH the set replaces the current blockers`,
    ),
  labelIds: uuidSet
    .optional()
    .describe(
      `label UUIDs (at most ${MAX_LINKED_IDS}), each a label of the issue's company (422 naming the unknown ones; see /api/companies/{companyId}/labels). On PATCH the set replaces the current labels; the list filters on \`labelId\``,
    ),
  assigneeAgentId: z
    .uuid()
    .nullish()
    .describe(
      `agent UUID; ${SAME_COMPANY} and not terminated or pending_approval. Needs task-assignment permission (403), except an agent taking the issue for itself or dropping its own assignment. Wakes the new assignee`,
    ),
  assigneeUserId: z
    .uuid()
    .nullish()
    .describe('board user UUID; agents without task-assignment permission may not set it (403)'),
  billingCode: z.string().trim().max(200).nullish().describe('free text up to 200 characters, for cost attribution'),
  executionPolicy: jsonObject.nullish().describe('free-form JSON object (at most 64 KiB, 32 levels)'),
  executionWorkspaceId: z.uuid().nullish().describe(`project workspace UUID to run in; ${SAME_COMPANY}`),
  executionWorkspacePreference: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .describe('free text up to 100 characters, kept for the adapter'),
  executionWorkspaceSettings: jsonObject.nullish().describe('free-form JSON object (at most 64 KiB, 32 levels)'),
};

export const createIssueBody = z
  .object({
    ...issueFields,
    inheritExecutionWorkspaceFromIssueId: z
      .uuid()
      .nullish()
      .describe(
        `copy executionWorkspaceId, executionWorkspacePreference and executionWorkspaceSettings from this issue where they are not given; ${SAME_COMPANY}`,
      ),
  })
  .meta(
    bodyExample('todo', 'A task ready to be picked up', {
      title: 'Write the launch post',
      description: 'A 600-word post for Friday: what ships, who it is for.',
      status: 'todo',
      priority: 'high',
    }),
  );

export const patchIssueBody = z
  .object({
    ...issueFields,
    title: issueFields.title.optional(),
    comment: commentBodyText
      .optional()
      .describe('adds a comment in the same call (markdown, at most 100 KiB); `@Agent Name` wakes that agent'),
    reopen: z
      .boolean()
      .optional()
      .describe('with `comment`: a done or cancelled issue moves to todo, unless `status` is given'),
    interrupt: z
      .boolean()
      .optional()
      .describe(
        'with `comment` only (400 otherwise), board only (403): asks the live run holding the checkout to stop',
      ),
    hiddenAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe('an ISO timestamp hides the issue from lists and the company activity feed; null unhides it'),
  })
  .meta(
    bodyExample('review', 'Hand the work over for review, with a comment', {
      status: 'in_review',
      comment: 'Draft is in the `plan` document, ready for review.',
    }),
  );

/** The list's next-page header: the keyset of the last issue of a full page, sent back as `cursor`. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** Where a page ends in list order: the last issue's priority rank, updatedAt (to the microsecond) and id. */
export interface IssueListKey {
  priorityRank: number;
  updatedAt: string;
  id: string;
}

const MICROSECOND_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const encodeListCursor = (key: IssueListKey): string =>
  Buffer.from(JSON.stringify([key.priorityRank, key.updatedAt, key.id])).toString('base64url');

/** An opaque cursor back to its key; anything the server did not issue is a 400, never a 500. */
const listCursor = z
  .string()
  .max(200)
  .transform((cursor, ctx): IssueListKey => {
    let parts: unknown;
    try {
      parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      parts = undefined;
    }
    const [priorityRank, updatedAt, id] = Array.isArray(parts) && parts.length === 3 ? parts : [];
    if (
      !Number.isInteger(priorityRank) ||
      typeof updatedAt !== 'string' ||
      !MICROSECOND_ISO.test(updatedAt) ||
      typeof id !== 'string' ||
      !UUID.test(id)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `not a cursor this list issued (send the \`${NEXT_CURSOR_HEADER}\` header of the previous page)`,
      });
      return z.NEVER;
    }
    return { priorityRank: priorityRank as number, updatedAt, id: id.toLowerCase() };
  });

/** A board user id, or `me` (board authentication only). */
const userRef = z.union([z.literal('me'), z.uuid()]);
const ME = 'a board user UUID, or `me` for the calling board user (board callers only: 403 for agents)';

export const listIssuesQuery = z.object({
  status: z
    .string()
    .max(200)
    .transform((s) =>
      s
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .pipe(z.array(z.enum(ISSUE_STATUSES)).min(1))
    .optional()
    .describe(`one status or several, comma-separated: ${ISSUE_STATUSES.join(', ')}`),
  assigneeAgentId: z.uuid().optional().describe('issues assigned to this agent'),
  participantAgentId: z.uuid().optional().describe('issues this agent created, is assigned to, or commented on'),
  assigneeUserId: userRef.optional().describe(`issues assigned to this user: ${ME}`),
  touchedByUserId: userRef
    .optional()
    .describe(`issues this user created, is assigned to, commented on, or read: ${ME}`),
  inboxArchivedByUserId: userRef
    .optional()
    .describe(`leaves out issues this user archived from their inbox, until they change again: ${ME}`),
  unreadForUserId: userRef
    .optional()
    .describe(`issues this user touched that changed since they last read them: ${ME}`),
  projectId: z.uuid().optional(),
  goalId: z
    .uuid()
    .optional()
    .describe('issues with this goal set on them (not the goal resolved through their project)'),
  executionWorkspaceId: z.uuid().optional(),
  parentId: z.uuid().optional().describe('direct children of this issue'),
  labelId: z.uuid().optional().describe('issues carrying this label id'),
  originKind: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('e.g. `manual`, `routine_execution`; also lifts the routine-execution exclusion'),
  originId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('e.g. the routine id; also lifts the routine-execution exclusion'),
  includeRoutineExecutions: z
    .stringbool()
    .default(false)
    .describe('include issues created by routine runs (default false)'),
  // An empty q is no search (clients often send `q=`).
  q: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((q) => q || undefined)
    .describe(
      'full-text search (web-search syntax) over title, identifier, description and comments; results are then ranked by best match',
    ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_ISSUE_PAGE)
    .transform((n) => Math.min(n, MAX_ISSUE_PAGE))
    .describe(`positive integer (default ${DEFAULT_ISSUE_PAGE}); larger values are clamped to ${MAX_ISSUE_PAGE}`),
  cursor: listCursor
    .optional()
    .describe(
      `next page (keyset): the \`${NEXT_CURSOR_HEADER}\` header of the previous answer, with the same filters; not with \`q\` (400)`,
    ),
});

export const issueActivityQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(200)
    .describe('newest entries to return, 1 to 500 (default 200)'),
});

export type CreateIssue = z.infer<typeof createIssueBody>;
export type PatchIssue = z.infer<typeof patchIssueBody>;
export type ListIssuesQuery = z.infer<typeof listIssuesQuery>;

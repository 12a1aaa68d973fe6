import { z } from 'zod';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';
import { commentBodyText } from '../comments/schemas.ts';

export const ISSUE_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'blocked', 'done', 'cancelled'] as const;
export const CLOSED_STATUSES: readonly IssueStatus[] = ['done', 'cancelled'];
export const ISSUE_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** Issue list `limit`: SPEC says only "positive integer"; unset means 50, larger values are clamped to 500. */
export const DEFAULT_ISSUE_PAGE = 50;
export const MAX_ISSUE_PAGE = 500;
/** blockedByIssueIds / labelIds per issue; generous for real plans, small enough to validate in one query. */
const MAX_LINKED_IDS = 100;

const jsonObject = freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES });
const uuidSet = z.array(z.uuid()).max(MAX_LINKED_IDS).transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

const issueFields = {
  title: z.string().trim().min(1).max(500),
  description: z.string().max(200_000).nullish(),
  status: z.enum(ISSUE_STATUSES).optional(),
  priority: z.enum(ISSUE_PRIORITIES).optional(),
  projectId: z.uuid().nullish(),
  goalId: z.uuid().nullish(),
  parentId: z.uuid().nullish(),
  blockedByIssueIds: uuidSet.optional(),
  labelIds: uuidSet.optional(),
  assigneeAgentId: z.uuid().nullish(),
  assigneeUserId: z.uuid().nullish(),
  billingCode: z.string().trim().max(200).nullish(),
  executionPolicy: jsonObject.nullish(),
  executionWorkspaceId: z.uuid().nullish(),
  executionWorkspacePreference: z.string().trim().max(100).nullish(),
  executionWorkspaceSettings: jsonObject.nullish(),
};

export const createIssueBody = z.object({ ...issueFields, inheritExecutionWorkspaceFromIssueId: z.uuid().nullish() });

export const patchIssueBody = z.object({
  ...issueFields,
  title: issueFields.title.optional(),
  comment: commentBodyText.optional(),
  reopen: z.boolean().optional(),
  interrupt: z.boolean().optional(),
  hiddenAt: z.iso.datetime({ offset: true }).nullable().optional(),
});

/** A board user id, or `me` (board authentication only). */
const userRef = z.union([z.literal('me'), z.uuid()]);

export const listIssuesQuery = z.object({
  status: z
    .string()
    .max(200)
    .transform((s) => s.split(',').map((part) => part.trim()).filter((part) => part.length > 0))
    .pipe(z.array(z.enum(ISSUE_STATUSES)).min(1))
    .optional(),
  assigneeAgentId: z.uuid().optional(),
  participantAgentId: z.uuid().optional(),
  assigneeUserId: userRef.optional(),
  touchedByUserId: userRef.optional(),
  inboxArchivedByUserId: userRef.optional(),
  unreadForUserId: userRef.optional(),
  projectId: z.uuid().optional(),
  executionWorkspaceId: z.uuid().optional(),
  parentId: z.uuid().optional(),
  labelId: z.uuid().optional(),
  originKind: z.string().trim().min(1).max(100).optional(),
  originId: z.string().trim().min(1).max(200).optional(),
  includeRoutineExecutions: z.stringbool().default(false),
  // An empty q is no search (clients often send `q=`).
  q: z.string().trim().max(500).optional().transform((q) => q || undefined),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_ISSUE_PAGE)
    .transform((n) => Math.min(n, MAX_ISSUE_PAGE)),
});

export const issueActivityQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export type CreateIssue = z.infer<typeof createIssueBody>;
export type PatchIssue = z.infer<typeof patchIssueBody>;
export type ListIssuesQuery = z.infer<typeof listIssuesQuery>;

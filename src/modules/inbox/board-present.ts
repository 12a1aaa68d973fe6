// Response schemas of the board inbox (GET /api/companies/{companyId}/inbox): what waits on the
// board, one typed item per thing, each with a stable key and the caller's read flag.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from '../../core/statuses.ts';
import { runErrorCodeField, runFailureWordsField } from '../../core/run-failures.ts';
import { APPROVAL_STATUSES, APPROVAL_TYPES } from '../approvals/schemas.ts';

export const INBOX_ITEM_KINDS = ['approval', 'run', 'budget_incident', 'issue'] as const;
export type InboxItemKind = (typeof INBOX_ITEM_KINDS)[number];

const common = {
  key: z.string().describe('stable key of the item, `<kind>:<id>`: what POST .../inbox/read takes'),
  read: z.boolean().describe('whether the caller marked the item read after it last changed'),
  at: timestampOut().describe(
    "when the item last changed (an unread item is one that changed after the caller's read mark)",
  ),
};

const approvalItem = z
  .object({
    kind: z.literal('approval'),
    ...common,
    approvalId: uuidOut(),
    approvalType: z.enum(APPROVAL_TYPES),
    status: z.enum(APPROVAL_STATUSES).describe('pending or revision_requested'),
    requestedByAgentId: uuidOut().nullable(),
    requestedByAgentName: z.string().nullable().describe('name of the requesting agent, when an agent asked'),
    summary: z
      .string()
      .nullable()
      .describe("`name` of a hire_agent payload, else the payload's `title` or `summary` when it has one"),
  })
  .describe('An approval waiting for a decision');

const runItem = z
  .object({
    kind: z.literal('run'),
    ...common,
    runId: uuidOut(),
    status: z.enum(['failed', 'timed_out']),
    agentId: uuidOut(),
    agentName: z.string(),
    issueId: uuidOut()
      .nullable()
      .describe('the issue the run was about, if any (a retry wakes the agent about it again)'),
    issueIdentifier: z.string().nullable(),
    issueTitle: z.string().nullable(),
    error: z.string().nullable().describe('why the run ended badly, when known (the detail of errorCode)'),
    errorCode: runErrorCodeField
      .nullable()
      .describe('why the run ended badly, as a code; null for a run that ended before codes were recorded'),
    errorHelp: runFailureWordsField.nullable(),
    finishedAt: timestampOut().nullable(),
  })
  .describe('A failed or timed-out run that no later run of its agent on the same issue has followed');

const incidentItem = z
  .object({
    kind: z.literal('budget_incident'),
    ...common,
    incidentId: uuidOut(),
    incidentKind: z
      .enum(['soft', 'hard'])
      .describe('soft: warn threshold crossed; hard: 100 percent, the scope stopped'),
    scopeType: z.string().describe('company, agent or project'),
    scopeId: uuidOut(),
    scopeName: z.string().nullable().describe('name of the agent, project or company the budget is for'),
    metric: z
      .string()
      .describe(
        'what the budget counts: `billed_cents` (money, in cents) or a usage metric such as `tokens` or `runs`',
      ),
    amount: z.number().int().describe("the budget, in the metric's unit"),
    observed: z.number().int().describe("use observed when the incident was raised, in the metric's unit"),
    approvalId: uuidOut().nullable().describe('the budget_override_required approval linked to it, if any'),
  })
  .describe('An open budget incident');

const issueItem = z
  .object({
    kind: z.literal('issue'),
    ...common,
    issueId: uuidOut(),
    identifier: z.string(),
    title: z.string(),
    status: z.enum(ISSUE_STATUSES),
    priority: z.enum(ISSUE_PRIORITIES),
    reason: z
      .enum(['blocked', 'assigned'])
      .describe('`blocked`: the issue is in status blocked; `assigned`: it is assigned to the caller'),
  })
  .describe('An open issue that is blocked or assigned to the calling board user');

export const inboxItemResponse = z
  .discriminatedUnion('kind', [approvalItem, runItem, incidentItem, issueItem])
  .describe('An inbox item');
export type InboxItemResponse = z.output<typeof inboxItemResponse>;

export const inboxResponse = z
  .object({
    items: z.array(inboxItemResponse).describe('newest change first, read and unread alike'),
    unreadCount: z.number().int().describe('how many of `items` are unread'),
  })
  .describe("The board's inbox");
export type InboxResponse = z.output<typeof inboxResponse>;

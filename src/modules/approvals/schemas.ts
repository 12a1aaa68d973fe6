import { z } from 'zod';
import { FREEFORM_PAYLOAD_BYTES, freeformObject } from '../../core/json.ts';

export const APPROVAL_TYPES = [
  'hire_agent',
  'approve_ceo_strategy',
  'budget_override_required',
  'request_board_approval',
] as const;
export const APPROVAL_STATUSES = ['pending', 'revision_requested', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

// Payloads are free-form JSON; 256 KiB serialised is far above any real request and keeps rows small.
export const approvalPayload = freeformObject({ maxBytes: FREEFORM_PAYLOAD_BYTES });
const PAYLOAD_LIMITS = 'Free-form JSON object: at most 32 levels deep and 256 KiB serialised.';

export const approvalParams = z.object({ approvalId: z.uuid().describe('approval UUID') });
export const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });

export const listApprovalsQuery = z.object({
  status: z.enum(APPROVAL_STATUSES).optional().describe('only approvals in this status'),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('page size, 1 to 500 (default 100)'),
});

export const createApprovalBody = z
  .object({
    type: z
      .enum(APPROVAL_TYPES)
      .describe(
        'what is asked: a hire (`hire_agent`), a strategy (`approve_ceo_strategy`), spending past a budget (`budget_override_required`) or any other decision (`request_board_approval`)',
      ),
    payload: approvalPayload.describe(
      `type-specific content. request_board_approval: \`title\`, \`summary\`, \`recommendedAction\`, \`risks\` (array of strings); approve_ceo_strategy: \`summary\` plus planning fields; hire_agent: \`agentId\` of a pending_approval draft agent of the company (422 otherwise) and the proposed configuration. ${PAYLOAD_LIMITS}`,
    ),
    requestedByAgentId: z
      .uuid()
      .nullish()
      .describe(
        'the requesting agent: an agent of the same company (422 otherwise). An agent caller may name only itself (403) and defaults to itself',
      ),
    issueIds: z
      .array(z.uuid())
      .max(100)
      .optional()
      .describe(
        'issues this request is about (at most 100; duplicates ignored): each must exist (404) and belong to the same company (422)',
      ),
  })
  .meta({
    examples: [
      {
        type: 'request_board_approval',
        payload: {
          title: 'Switch the marketing site to the new pricing',
          summary: 'Publish the three-tier pricing agreed last week.',
          recommendedAction: 'Approve so the site update ships on Monday',
          risks: ['Existing customers may ask about the old plan'],
        },
      },
    ],
  });

// A bodiless POST reaches validation as null: an absent body means "no note".
const decisionFields = z.object({
  decisionNote: z
    .string()
    .trim()
    .max(10_000)
    .nullish()
    .describe('why, for the requester (up to 10,000 characters); stored as the latest decisionNote'),
});
/** The body of approve, reject and request-revision, with an example note fitting the decision. */
export const decisionBodyWith = (exampleNote: string) =>
  decisionFields.nullish().meta({ examples: [{ decisionNote: exampleNote }] });
export const resubmitBody = z
  .object({
    payload: approvalPayload
      .optional()
      .describe(
        `replaces the payload when given (a hire keeps pointing at its draft agent: \`agentId\` is kept); omitted keeps the current payload. ${PAYLOAD_LIMITS}`,
      ),
  })
  .nullish()
  .meta({
    examples: [
      {
        payload: {
          title: 'Switch the marketing site to the new pricing',
          summary: 'Now with a migration note for existing customers.',
          recommendedAction: 'Approve',
          risks: [],
        },
      },
    ],
  });

export const listCommentsQuery = z.object({
  afterCommentId: z.uuid().optional().describe('continue after this comment of the approval (404 when it is not one)'),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('page size, 1 to 500 (default 100)'),
});
export const createCommentBody = z
  .object({ body: z.string().trim().min(1).max(100_000).describe('markdown, 1 to 100,000 characters') })
  .meta({ examples: [{ body: 'Can we phase this in per region first?' }] });

export type CreateApprovalBody = z.infer<typeof createApprovalBody>;

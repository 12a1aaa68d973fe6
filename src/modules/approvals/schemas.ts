import { z } from 'zod';
import { FREEFORM_PAYLOAD_BYTES, freeformObject } from '../../core/json.ts';

export const APPROVAL_TYPES = ['hire_agent', 'approve_ceo_strategy', 'budget_override_required', 'request_board_approval'] as const;
export const APPROVAL_STATUSES = ['pending', 'revision_requested', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

// Payloads are free-form JSON; 256 KiB serialised is far above any real request and keeps rows small.
export const approvalPayload = freeformObject({ maxBytes: FREEFORM_PAYLOAD_BYTES });

export const approvalParams = z.object({ approvalId: z.uuid() });
export const companyParams = z.object({ companyId: z.uuid() });

export const listApprovalsQuery = z.object({
  status: z.enum(APPROVAL_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const createApprovalBody = z.object({
  type: z.enum(APPROVAL_TYPES),
  payload: approvalPayload,
  requestedByAgentId: z.uuid().nullish(),
  issueIds: z.array(z.uuid()).max(100).optional(),
});

// A bodiless POST reaches validation as null: an absent body means "no note".
export const decisionBody = z.object({ decisionNote: z.string().trim().max(10_000).nullish() }).nullish();
export const resubmitBody = z.object({ payload: approvalPayload.optional() }).nullish();

export const listCommentsQuery = z.object({
  afterCommentId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const createCommentBody = z.object({ body: z.string().trim().min(1).max(100_000) });

export type CreateApprovalBody = z.infer<typeof createApprovalBody>;

// GET /api/companies/{companyId}/feedback-traces (board only): board feedback on agent output,
// newest first. SPEC names the filters; the response shape is ours:
//   { id, companyId, targetType, targetId, issueId, projectId, vote, status, sharedAt, createdAt,
//     payload (only with includePayload=true) }
// sharedOnly keeps traces whose sharing was consented (sharedAt set); `limit` 1-500, default 100.
import { and, desc, eq, gte, isNotNull, lte, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Ctx } from '../../core/context.ts';
import { feedbackTraces } from '../../db/schema/index.ts';
import { companyForFeedback } from './policy.ts';

export const listFeedbackTracesQuery = z.object({
  targetType: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('only traces on this kind of target (exact match), e.g. `issue_comment`'),
  vote: z.enum(['up', 'down']).optional().describe('only up or only down votes'),
  status: z.enum(['pending', 'shared', 'withheld']).optional().describe('only traces in this sharing state'),
  issueId: z.uuid().optional().describe('only traces about this issue'),
  projectId: z.uuid().optional().describe('only traces about this project'),
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('only traces created at or after this ISO 8601 date-time (with offset, e.g. `2026-01-01T00:00:00Z`)'),
  to: z.iso.datetime({ offset: true }).optional().describe('only traces created at or before this ISO 8601 date-time'),
  sharedOnly: z
    .stringbool()
    .default(false)
    .describe('only traces whose sharing was consented (`sharedAt` set); default false'),
  includePayload: z.stringbool().default(false).describe("include each trace's `payload`; default false"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .describe('traces returned, newest first: 1 to 500 (default 100)'),
});
type ListFeedbackTracesQuery = z.infer<typeof listFeedbackTracesQuery>;
type FeedbackTrace = typeof feedbackTraces.$inferSelect;

export async function listFeedbackTraces(
  ctx: Ctx,
  companyRef: string,
  query: ListFeedbackTracesQuery,
): Promise<FeedbackTrace[]> {
  const { id: companyId } = await companyForFeedback(ctx, companyRef);
  const where: (SQL | undefined)[] = [
    eq(feedbackTraces.companyId, companyId),
    query.targetType ? eq(feedbackTraces.targetType, query.targetType) : undefined,
    query.vote ? eq(feedbackTraces.vote, query.vote) : undefined,
    query.status ? eq(feedbackTraces.status, query.status) : undefined,
    query.issueId ? eq(feedbackTraces.issueId, query.issueId) : undefined,
    query.projectId ? eq(feedbackTraces.projectId, query.projectId) : undefined,
    query.from ? gte(feedbackTraces.createdAt, new Date(query.from)) : undefined,
    query.to ? lte(feedbackTraces.createdAt, new Date(query.to)) : undefined,
    query.sharedOnly ? isNotNull(feedbackTraces.sharedAt) : undefined,
  ];
  return ctx.db
    .select()
    .from(feedbackTraces)
    .where(and(...where))
    .orderBy(desc(feedbackTraces.createdAt), desc(feedbackTraces.id))
    .limit(query.limit);
}

export function presentFeedbackTrace(trace: FeedbackTrace, includePayload: boolean) {
  return {
    id: trace.id,
    companyId: trace.companyId,
    targetType: trace.targetType,
    targetId: trace.targetId,
    issueId: trace.issueId,
    projectId: trace.projectId,
    vote: trace.vote,
    status: trace.status,
    sharedAt: trace.sharedAt,
    createdAt: trace.createdAt,
    ...(includePayload && { payload: trace.payload }),
  };
}

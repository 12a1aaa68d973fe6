// The feedback-trace response (shape ours; see ./service.ts). The service's presenter picks the
// fields; this narrows its enum columns to the documented values.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { presentFeedbackTrace } from './service.ts';

export const feedbackTraceResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    targetType: z.string().describe('what was voted on, e.g. `issue_comment`, `document`, `run`'),
    targetId: z.string().describe('id of that target'),
    issueId: uuidOut().nullable().describe('the issue the target belongs to, when any'),
    projectId: uuidOut().nullable().describe('the project the target belongs to, when any'),
    vote: z.enum(['up', 'down']),
    status: z
      .enum(['pending', 'shared', 'withheld'])
      .describe('sharing state: pending (not decided), shared (consented), withheld'),
    sharedAt: timestampOut().nullable().describe('when sharing was consented; null when not'),
    createdAt: timestampOut(),
    payload: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe('the captured context; present only with `includePayload=true`'),
  })
  .describe('A feedback trace');

export type FeedbackTraceResponse = z.output<typeof feedbackTraceResponse>;

export function presentTrace(...args: Parameters<typeof presentFeedbackTrace>): FeedbackTraceResponse {
  const out = presentFeedbackTrace(...args);
  return {
    ...out,
    vote: out.vote as FeedbackTraceResponse['vote'],
    status: out.status as FeedbackTraceResponse['status'],
  };
}

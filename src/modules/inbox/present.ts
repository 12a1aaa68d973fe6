// Response schemas of the agent wake-up routes: inbox-lite items and the heartbeat context.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { issueLineageResponse, issueResponse, issueSummaryResponse } from '../issues/present.ts';
import { LIVE_RUN_STATUSES } from '../../core/statuses.ts';

/** SPEC "Inbox-lite item": one open assignment of the calling agent. */
export const inboxLiteItemResponse = issueSummaryResponse
  .pick({
    id: true,
    identifier: true,
    title: true,
    status: true,
    priority: true,
    projectId: true,
    goalId: true,
    parentId: true,
  })
  .extend({
    updatedAt: timestampOut(),
    activeRun: z
      .object({ id: uuidOut(), status: z.enum(LIVE_RUN_STATUSES), startedAt: timestampOut().nullable() })
      .nullable()
      .describe('the run holding the checkout while it is in flight (queued or running); null otherwise'),
    dependencyReady: z.boolean().describe('false while any blocker is open (neither done nor cancelled)'),
    unresolvedBlockerCount: z.number().int(),
    unresolvedBlockerIssueIds: z.array(uuidOut()).describe('ids of the open blockers, by identifier'),
  })
  .describe('An open assignment in brief');

export type InboxLiteItemResponse = z.output<typeof inboxLiteItemResponse>;

const heartbeatIssueResponse = issueSummaryResponse
  .extend(
    issueResponse.pick({
      description: true,
      assigneeUserId: true,
      checkoutRunId: true,
      executionWorkspaceId: true,
      startedAt: true,
      completedAt: true,
      createdAt: true,
      updatedAt: true,
    }).shape,
  )
  .describe('The issue, reduced to what a waking agent needs');

/** GET /api/issues/{issueId}/heartbeat-context; built by ./heartbeat-context.ts. */
export const heartbeatContextResponse = z
  .object({
    issue: heartbeatIssueResponse,
    ...issueLineageResponse.shape,
    commentCursor: z
      .object({
        totalComments: z.number().int(),
        latestCommentId: uuidOut().nullable(),
        latestCommentAt: timestampOut().nullable(),
      })
      .describe(
        'where the conversation stands: fetch only newer comments with GET /api/issues/{issueId}/comments?afterCommentId=<id>',
      ),
    wakeComment: z
      .object({
        id: uuidOut(),
        body: z.string(),
        authorAgentId: uuidOut().nullable(),
        authorUserId: uuidOut().nullable(),
        runId: z.string().nullable().describe('the run the author commented from, when known'),
        createdAt: timestampOut(),
      })
      .nullable()
      .describe('the comment named by `wakeCommentId` when it belongs to this issue; null otherwise'),
    attachments: z
      .array(
        z.object({
          id: uuidOut(),
          name: z.string().nullable().describe('file name as uploaded'),
          contentType: z.string(),
          byteSize: z.number().int(),
          createdAt: timestampOut(),
        }),
      )
      .describe('attachment metadata, newest first (at most 100); download from `/api/attachments/{id}/content`'),
  })
  .describe('What an agent needs when it wakes for an issue');

export type HeartbeatContextResponse = z.output<typeof heartbeatContextResponse>;

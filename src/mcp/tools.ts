// The tools of `boardroom mcp`: each one API route of SPEC.md, called as the run's agent. Inputs
// reuse the routes' own zod schemas (same bounds, same descriptions); the output is the API's JSON
// as text. An API error is a tool error result naming the status, never a crash of the server.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createApprovalBody } from '../modules/approvals/schemas.ts';
import { createCommentBody } from '../modules/comments/schemas.ts';
import { createCostEventBody } from '../modules/costs/schemas.ts';
import { documentParams, MAX_DOCUMENT_BYTES, putDocumentBody } from '../modules/documents/schemas.ts';
import { ISSUE_STATUSES } from '../core/statuses.ts';
import { createIssueBody, patchIssueBody } from '../modules/issues/schemas.ts';
import type { ApiClient, ApiResult } from './client.ts';

const issueRef = z.string().trim().min(1).max(100).describe('issue UUID or identifier (`ACM-12`)');
const issueInput = z.object({ issueId: issueRef });
const path = (issueId: string) => `/api/issues/${encodeURIComponent(issueId)}`;

/** The statuses an agent normally picks work up from; in_progress only to adopt a stale lock. */
const DEFAULT_CHECKOUT_STATUSES = ['backlog', 'todo', 'blocked', 'in_review'] as const;

export function toolResult(result: ApiResult): CallToolResult {
  if (result.ok) return { content: [{ type: 'text', text: JSON.stringify(result.body ?? null) }] };
  const details = result.details === undefined ? '' : ` ${JSON.stringify(result.details)}`;
  const status = result.status === 0 ? 'no response' : `HTTP ${result.status}`;
  return { isError: true, content: [{ type: 'text', text: `${status}: ${result.error}${details}` }] };
}

export function registerTools(server: McpServer, api: ApiClient): void {
  /** Runs `fn` with the caller's agent and company ids; an unknown caller is that request's error. */
  const asSelf = async (
    fn: (self: { agentId: string; companyId: string }) => Promise<ApiResult>,
  ): Promise<CallToolResult> => {
    const self = await api.self();
    return toolResult('ok' in self ? self : await fn(self));
  };

  server.registerTool(
    'inbox',
    {
      description: 'Your inbox: the open issues assigned to you, most urgent first (GET /api/agents/me/inbox-lite).',
      inputSchema: z.object({}),
    },
    async () => toolResult(await api.request('GET', '/api/agents/me/inbox-lite')),
  );
  server.registerTool(
    'heartbeat_context',
    {
      description:
        'Compact context of an issue for this run: summary, ancestors, project and goal, comment cursor, the waking comment (GET /api/issues/{issueId}/heartbeat-context).',
      inputSchema: z.object({
        issueId: issueRef.optional().describe('default: the issue this run is about (SERVICE_TASK_ID)'),
      }),
    },
    async ({ issueId }) => {
      const id = issueId ?? api.taskId;
      if (!id) return { isError: true, content: [{ type: 'text', text: 'give issueId: this run is about no issue' }] };
      return toolResult(await api.request('GET', `${path(id)}/heartbeat-context`));
    },
  );
  server.registerTool(
    'checkout_issue',
    {
      description:
        'Check an issue out to yourself under this run before working on it: it moves to in_progress. A 409 means someone else has it or its status is not expected: do not retry.',
      inputSchema: issueInput.extend({
        expectedStatuses: z
          .array(z.enum(ISSUE_STATUSES))
          .min(1)
          .max(ISSUE_STATUSES.length)
          .default([...DEFAULT_CHECKOUT_STATUSES])
          .describe(`statuses the issue may be in (default ${DEFAULT_CHECKOUT_STATUSES.join(', ')})`),
      }),
    },
    async ({ issueId, expectedStatuses }) =>
      asSelf(({ agentId }) => api.request('POST', `${path(issueId)}/checkout`, { agentId, expectedStatuses })),
  );
  server.registerTool(
    'release_issue',
    {
      description:
        'Give a checked-out issue back: it returns to todo, unassigned (POST /api/issues/{issueId}/release).',
      inputSchema: issueInput,
    },
    async ({ issueId }) => toolResult(await api.request('POST', `${path(issueId)}/release`)),
  );
  server.registerTool(
    'update_issue',
    {
      description:
        'Update an issue: status, priority, description, assignee, blockers, ... and optionally add a comment in the same call (PATCH /api/issues/{issueId}).',
      inputSchema: patchIssueBody.extend({ issueId: issueRef }),
    },
    async ({ issueId, ...fields }) => toolResult(await api.request('PATCH', path(issueId), fields)),
  );
  server.registerTool(
    'add_comment',
    {
      description:
        'Comment on an issue (markdown); `@Agent Name` wakes that agent (POST /api/issues/{issueId}/comments).',
      inputSchema: createCommentBody.extend({ issueId: issueRef }),
    },
    async ({ issueId, ...fields }) => toolResult(await api.request('POST', `${path(issueId)}/comments`, fields)),
  );
  server.registerTool(
    'read_document',
    {
      description:
        'Read one document of an issue (e.g. `plan`) with its latest body and `latestRevisionId` (GET /api/issues/{issueId}/documents/{key}).',
      inputSchema: documentParams,
    },
    async ({ issueId, key }) => toolResult(await api.request('GET', `${path(issueId)}/documents/${key}`)),
  );
  server.registerTool(
    'write_document',
    {
      description:
        'Create a document of an issue, or add a revision: to update, pass the current `latestRevisionId` as baseRevisionId (PUT /api/issues/{issueId}/documents/{key}).',
      // Characters bound the input here; the API checks the 512 KiB in UTF-8 bytes (413).
      inputSchema: documentParams.extend({
        ...putDocumentBody.shape,
        body: putDocumentBody.shape.body.max(MAX_DOCUMENT_BYTES),
      }),
    },
    async ({ issueId, key, ...fields }) =>
      toolResult(await api.request('PUT', `${path(issueId)}/documents/${key}`, fields)),
  );
  server.registerTool(
    'create_sub_issue',
    {
      description:
        'Create an issue under a parent issue of your company (POST /api/companies/{companyId}/issues with parentId).',
      inputSchema: createIssueBody.extend({ parentId: z.uuid().describe('the parent issue UUID') }),
    },
    async (fields) => asSelf(({ companyId }) => api.request('POST', `/api/companies/${companyId}/issues`, fields)),
  );
  server.registerTool(
    'request_approval',
    {
      description:
        'Ask the board for a decision (a hire, a strategy, spending past a budget, anything else); it starts pending (POST /api/companies/{companyId}/approvals).',
      inputSchema: createApprovalBody,
    },
    async (fields) => asSelf(({ companyId }) => api.request('POST', `/api/companies/${companyId}/approvals`, fields)),
  );
  server.registerTool(
    'report_usage',
    {
      description:
        'Report model usage and its cost for your own work (POST /api/companies/{companyId}/cost-events); occurredAt defaults to now.',
      inputSchema: createCostEventBody
        .omit({ agentId: true })
        .extend({ occurredAt: createCostEventBody.shape.occurredAt.optional() }),
    },
    async (fields) =>
      asSelf(({ agentId, companyId }) =>
        api.request('POST', `/api/companies/${companyId}/cost-events`, {
          ...fields,
          agentId,
          occurredAt: fields.occurredAt ?? new Date().toISOString(),
        }),
      ),
  );
}

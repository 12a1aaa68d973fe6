import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { documentResponse } from '../documents/present.ts';
import { goalSummaryResponse } from '../goals/present.ts';
import { projectSummaryResponse, workspaceResponse } from '../projects/present.ts';
import { isolatedWorkspaceResponse, workProductResponse } from '../execution-workspaces/present.ts';
import type { Issue } from '../../db/rows.ts';
import type { IssueSummaryRow } from './lookup.ts';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from '../../core/statuses.ts';

const at = () => timestampOut().nullable();
const json = () => z.record(z.string(), z.unknown()).nullable();

/** An issue as every route returns it (SPEC section 2, Issue). The presenter is typed by it. */
export const issueResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    identifier: z.string().describe('`<PREFIX>-<n>`, unique across the instance'),
    issueNumber: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    status: z.enum(ISSUE_STATUSES),
    priority: z.enum(ISSUE_PRIORITIES),
    projectId: uuidOut().nullable(),
    goalId: uuidOut().nullable(),
    parentId: uuidOut().nullable(),
    assigneeAgentId: uuidOut().nullable(),
    assigneeUserId: uuidOut().nullable(),
    createdByAgentId: uuidOut().nullable(),
    createdByUserId: uuidOut().nullable(),
    billingCode: z.string().nullable(),
    labelIds: z.array(z.string()),
    executionPolicy: json(),
    executionWorkspaceId: uuidOut().nullable(),
    executionWorkspacePreference: z.string().nullable(),
    executionWorkspaceSettings: json(),
    checkoutRunId: uuidOut()
      .nullable()
      .describe('the heartbeat run holding the checkout; null when free or checked out by the board'),
    originKind: z.string(),
    originId: z.string().nullable(),
    startedAt: at(),
    completedAt: at(),
    cancelledAt: at(),
    started_at: at().describe('SPEC spelling of startedAt'),
    completed_at: at().describe('SPEC spelling of completedAt'),
    hiddenAt: at(),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The issue');

export type IssueResponse = z.output<typeof issueResponse>;

export function presentIssue(issue: Omit<Issue, 'searchVector'>): IssueResponse {
  return {
    id: issue.id,
    companyId: issue.companyId,
    identifier: issue.identifier,
    issueNumber: issue.number,
    title: issue.title,
    description: issue.description,
    status: issue.status as IssueResponse['status'],
    priority: issue.priority as IssueResponse['priority'],
    projectId: issue.projectId,
    goalId: issue.goalId,
    parentId: issue.parentId,
    assigneeAgentId: issue.assigneeAgentId,
    assigneeUserId: issue.assigneeUserId,
    createdByAgentId: issue.createdByAgentId,
    createdByUserId: issue.createdByUserId,
    billingCode: issue.billingCode,
    labelIds: issue.labelIds,
    executionPolicy: issue.executionPolicy,
    executionWorkspaceId: issue.executionWorkspaceId,
    executionWorkspacePreference: issue.executionWorkspacePreference,
    executionWorkspaceSettings: issue.executionWorkspaceSettings,
    checkoutRunId: issue.checkoutRunId,
    originKind: issue.originKind,
    originId: issue.originId,
    startedAt: issue.startedAt,
    completedAt: issue.completedAt,
    cancelledAt: issue.cancelledAt,
    // SPEC names these two record fields in snake_case; both spellings are served.
    started_at: issue.startedAt,
    completed_at: issue.completedAt,
    hiddenAt: issue.hiddenAt,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
  };
}

/** The compact form embedded in other responses (blockers, ancestors, run issue lists). */
export const issueSummaryResponse = issueResponse
  .pick({
    id: true,
    identifier: true,
    title: true,
    status: true,
    priority: true,
    assigneeAgentId: true,
    projectId: true,
    goalId: true,
    parentId: true,
  })
  .describe('An issue in brief');

export type IssueSummaryResponse = z.output<typeof issueSummaryResponse>;

export function presentIssueSummary(issue: IssueSummaryRow): IssueSummaryResponse {
  return {
    id: issue.id,
    identifier: issue.identifier,
    title: issue.title,
    status: issue.status as IssueSummaryResponse['status'],
    priority: issue.priority as IssueSummaryResponse['priority'],
    assigneeAgentId: issue.assigneeAgentId,
    projectId: issue.projectId,
    goalId: issue.goalId,
    parentId: issue.parentId,
  };
}

// What the issue detail embeds from other areas uses their own response schemas.

/** Where an issue sits: shared by the detail and the heartbeat context (see issueLineage). */
export const issueAncestorResponse = issueSummaryResponse
  .extend({ project: projectSummaryResponse.nullable(), goal: goalSummaryResponse.nullable() })
  .describe('An ancestor issue in brief, with its project and resolved goal');

export const issueLineageResponse = z.object({
  project: projectSummaryResponse.nullable().describe("the issue's project"),
  goal: goalSummaryResponse
    .nullable()
    .describe("the issue's goal, else its project's goal, else (no project) the company's default goal"),
  ancestors: z.array(issueAncestorResponse).describe('parent first, up to the root (at most 50)'),
});

export type IssueLineageResponse = z.output<typeof issueLineageResponse>;

/** GET /api/issues/{issueId} (SPEC "Issue detail response adds"); definitions in ./detail.ts. */
export const issueDetailResponse = issueResponse
  .extend({
    ...issueLineageResponse.shape,
    blockedBy: z.array(issueSummaryResponse).describe('issues blocking this one, by number (at most 200)'),
    blocks: z.array(issueSummaryResponse).describe('issues this one blocks, by number (at most 200)'),
    planDocument: documentResponse
      .nullable()
      .describe('the document with key `plan`, with its latest body; null when there is none'),
    documentSummaries: z
      .array(
        z.object({
          id: uuidOut(),
          key: z.string(),
          title: z.string().nullable(),
          latestRevisionNumber: z.number().int(),
          updatedAt: timestampOut(),
        }),
      )
      .describe('every document of the issue without bodies, by key (at most 200)'),
    legacyPlanDocument: z
      .object({ body: z.string(), source: z.literal('description') })
      .nullable()
      .describe(
        'read-only fallback when there is no `plan` document: the body of a `<plan>...</plan>` block in the description, else of its `# Plan` section (levels 1 to 3); null when neither exists',
      ),
    mentionedProjects: z
      .array(projectSummaryResponse)
      .describe(
        'projects of the company named in the description as `#urlKey` or `project://<projectId>`, by name (at most 50)',
      ),
    currentExecutionWorkspace: z
      .union([isolatedWorkspaceResponse, workspaceResponse])
      .nullable()
      .describe(
        "the issue's isolated execution workspace (`mode: isolated`) when its project asks for isolation and a run created one; else the project workspace named by `executionWorkspaceId`",
      ),
    workProducts: z
      .array(workProductResponse)
      .describe(
        "the isolated workspace's branch against its base commit (commits ahead, diff stat), as of the last run; empty otherwise",
      ),
  })
  .describe('The issue with its related objects');

export type IssueDetailResponse = z.output<typeof issueDetailResponse>;

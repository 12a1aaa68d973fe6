// The issue page's reads. Every key is a company key under a live resource ('issue', 'documents',
// 'runs', 'issues', 'agents'), so the company event stream refreshes them: nothing here polls.
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { agentsQuery } from '../../components/agents/queries';
import { companyKey } from '../../api/keys';
import type { paths } from '../../api/schema';

type Json<P extends keyof paths, M extends 'get' | 'patch' | 'put'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type IssueDetail = Json<'/api/issues/{issueId}', 'get'>;
export type IssueSummary = IssueDetail['blockedBy'][number];
export type Agent = Json<'/api/companies/{companyId}/agents', 'get'>[number];
export type IssueDocument = Json<'/api/issues/{issueId}/documents/{key}', 'get'>;
export type Revision = Json<'/api/issues/{issueId}/documents/{key}/revisions', 'get'>[number];
export type Attachment = Json<'/api/issues/{issueId}/attachments', 'get'>[number];
export type RunSummary = Json<'/api/issues/{issueId}/runs', 'get'>[number];
export type IssueStatus = IssueDetail['status'];
export type IssuePriority = IssueDetail['priority'];

export const ISSUE_STATUSES: IssueStatus[] = [
  'backlog',
  'todo',
  'in_progress',
  'in_review',
  'blocked',
  'done',
  'cancelled',
];
export const ISSUE_PRIORITIES: IssuePriority[] = ['critical', 'high', 'medium', 'low'];
export const LIVE_RUN_STATUSES = new Set(['queued', 'running']);

/** How many comments, sub-issues and runs the page shows: the newest ones. */
export const COMMENT_PAGE = 200;
export const SUB_ISSUE_PAGE = 100;
export const RUN_PAGE = 20;

export const issueKey = (companyId: string, issueRef: string) => companyKey(companyId, 'issue', issueRef);

export function useIssue(companyId: string, issueRef: string) {
  return useQuery({
    queryKey: issueKey(companyId, issueRef),
    queryFn: async () => data(await api.GET('/api/issues/{issueId}', { params: { path: { issueId: issueRef } } })),
  });
}

export function useAgents(companyId: string) {
  return useQuery(agentsQuery(companyId));
}

export function agentName(agents: Agent[] | undefined, agentId: string | null | undefined): string {
  if (!agentId) return 'nobody';
  return agents?.find((agent) => agent.id === agentId)?.name ?? `agent ${agentId.slice(0, 8)}`;
}

import type { Issue } from './lookup.ts';

export function presentIssue(issue: Omit<Issue, "searchVector">) {
  return {
    id: issue.id,
    companyId: issue.companyId,
    identifier: issue.identifier,
    issueNumber: issue.number,
    title: issue.title,
    description: issue.description,
    status: issue.status,
    priority: issue.priority,
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
export function presentIssueSummary(issue: Pick<Issue, 'id' | 'identifier' | 'title' | 'status' | 'priority' | 'assigneeAgentId' | 'projectId' | 'goalId' | 'parentId'>) {
  return {
    id: issue.id,
    identifier: issue.identifier,
    title: issue.title,
    status: issue.status,
    priority: issue.priority,
    assigneeAgentId: issue.assigneeAgentId,
    projectId: issue.projectId,
    goalId: issue.goalId,
    parentId: issue.parentId,
  };
}

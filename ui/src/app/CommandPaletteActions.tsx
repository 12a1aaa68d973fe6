// The palette's actions in context: what the page on show can have done to its subject, without the
// mouse. On an issue: "Set status…" and "Assign to…" (each a second step listing the choices); on an
// agent: wake, pause or resume, whichever its status allows; on an open approval: approve or reject.
// Each goes through the same call as the page's own control (patchIssue, changeLifecycle, wakeAgent,
// decideApproval), then says what happened in a toast: a status change with Undo, a refusal in the
// server's words. The subject is read from the cache the page filled (the same queries).
import { useQuery } from '@tanstack/react-query';
import { Check, Pause, Play, UserRound, UserRoundX, X, Zap, CircleDashed, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { errorMessage } from '../api/client';
import { AgentAvatar } from '../components/display/AgentAvatar';
import { StatusIcon } from '../components/display/StatusIcon';
import { statusChangedToast } from '../components/issues/status-toast';
import { Icon } from '../components/ui/Icon';
import { toast } from '../components/ui/Toast';
import { APPROVAL_TYPE_LABELS } from '../lib/approval-labels';
import { issueStatuses, type IssueStatus } from '../lib/statuses';
import { agentQuery, agentsQuery } from '../queries/agents';
import { approvalQuery } from '../queries/approvals';
import { issueQuery } from '../queries/issues';
import { changeLifecycle, type Lifecycle, useRefreshAgent, wakeAgent, wakeSkipped } from '../pages/agent/lifecycle';
import { useRefreshAfterDecision } from '../pages/approval/refresh';
import { decideApproval } from '../pages/approvals/decide';
import { type IssuePatch, patchIssue, useIssuePatched } from '../pages/issue/usePatchIssue';

/** A second step of the palette: the choices of one action. */
export type PaletteStep = 'status' | 'assignee';

export interface PaletteAction {
  /** cmdk's value: unique, what the search is matched against. */
  value: string;
  label: string;
  keywords: string[];
  icon?: LucideIcon;
  leading?: ReactNode;
  /** Runs the action (the palette closes first), or opens its second step. */
  does: { run: () => void } | { step: PaletteStep; placeholder: string };
}

export interface PaletteContext {
  actions: PaletteAction[];
  /** The choices of each second step, for the subject on show. */
  steps: Partial<Record<PaletteStep, PaletteAction[]>>;
}

type Subject = { kind: 'issues' | 'agents' | 'approvals'; ref: string } | null;

function subjectOf(pathname: string, companyId: string): Subject {
  const match = /^\/c\/([^/]+)\/(issues|agents|approvals)\/([^/]+)/.exec(pathname);
  if (!match?.[3] || match[1] !== companyId) return null;
  return { kind: match[2] as 'issues' | 'agents' | 'approvals', ref: decodeURIComponent(match[3]) };
}

const failed = (title: string) => (error: unknown) => toast({ tone: 'error', title, description: errorMessage(error) });

/** The actions the page on show offers (none elsewhere). */
export function usePaletteContext(companyId: string): PaletteContext {
  const { pathname } = useLocation();
  const subject = subjectOf(pathname, companyId);
  const issue = useQuery({ ...issueQuery(companyId, subject?.ref ?? ''), enabled: subject?.kind === 'issues' }).data;
  const agent = useQuery({ ...agentQuery(companyId, subject?.ref ?? ''), enabled: subject?.kind === 'agents' }).data;
  const approval = useQuery({
    ...approvalQuery(companyId, subject?.ref ?? ''),
    enabled: subject?.kind === 'approvals',
  }).data;
  const agents = useQuery(agentsQuery(companyId)).data;
  const issuePatched = useIssuePatched(companyId);
  const refreshAgent = useRefreshAgent(companyId);
  const refreshApprovals = useRefreshAfterDecision(companyId);

  if (subject?.kind === 'issues' && issue) {
    const { id, identifier } = issue;
    const change = (patch: IssuePatch) =>
      patchIssue(id, patch).then((updated) => {
        issuePatched(updated);
        return updated;
      });
    const setStatus = (to: IssueStatus, from: IssueStatus): void => {
      change({ status: to }).then(
        () => statusChangedToast(identifier, from, to, () => setStatus(from, to)),
        failed(`${identifier} was not moved to ${issueStatuses.label(to)}`),
      );
    };
    const assign = (agentId: string | null, name: string | null): void => {
      change({ assigneeAgentId: agentId, assigneeUserId: null }).then(
        () =>
          toast({ tone: 'success', title: name ? `${identifier} assigned to ${name}` : `${identifier} unassigned` }),
        failed(name ? `${identifier} was not assigned to ${name}` : `${identifier} was not unassigned`),
      );
    };
    const assigned = issue.assigneeAgentId !== null || issue.assigneeUserId !== null;
    return {
      actions: [
        {
          value: 'Set status',
          label: 'Set status…',
          keywords: ['status', 'move', identifier],
          leading: <StatusIcon kind="issue" status={issue.status} size={14} />,
          does: { step: 'status', placeholder: `Move ${identifier} to…` },
        },
        {
          value: 'Assign to',
          label: 'Assign to…',
          keywords: ['assignee', 'assign', 'owner', identifier],
          icon: UserRound,
          does: { step: 'assignee', placeholder: `Assign ${identifier} to…` },
        },
      ],
      steps: {
        status: issueStatuses.list
          .filter((status) => status !== issue.status)
          .map((status) => ({
            value: `Status ${issueStatuses.label(status)}`,
            label: issueStatuses.label(status),
            keywords: [],
            leading: <StatusIcon kind="issue" status={status} size={14} />,
            does: { run: () => setStatus(status, issue.status) },
          })),
        assignee: [
          ...(assigned
            ? [
                {
                  value: 'Assignee No one',
                  label: 'No one',
                  keywords: ['unassign', 'nobody', 'none'],
                  icon: UserRoundX,
                  does: { run: () => assign(null, null) },
                },
              ]
            : []),
          ...(agents ?? [])
            .filter((candidate) => candidate.status !== 'terminated' && candidate.id !== issue.assigneeAgentId)
            .map((candidate) => ({
              value: `Assignee ${candidate.name}`,
              label: candidate.name,
              keywords: [candidate.role, candidate.title ?? ''],
              leading: <AgentAvatar id={candidate.id} name={candidate.name} status={candidate.status} size={20} />,
              does: { run: () => assign(candidate.id, candidate.name) },
            })),
        ],
      },
    };
  }

  if (subject?.kind === 'agents' && agent) {
    const { id, name, status } = agent;
    const lifecycle = (action: Lifecycle, done: string, refused: string) => () => {
      changeLifecycle(id, action).then(() => {
        void refreshAgent(id);
        toast({ tone: 'success', title: done });
      }, failed(refused));
    };
    const wake = () => {
      wakeAgent(id).then(
        (result) => {
          const skipped = wakeSkipped(result);
          toast(
            skipped
              ? { tone: 'info', title: `${name} was not woken`, description: skipped }
              : { tone: 'success', title: `${name} woken`, description: 'Its run shows on its Runs tab.' },
          );
        },
        failed(`${name} could not be woken`),
      );
    };
    const actions: PaletteAction[] = [];
    if (status === 'paused')
      actions.push({
        value: `Resume ${name}`,
        label: `Resume ${name}`,
        keywords: ['resume', 'unpause', 'start'],
        icon: Play,
        does: { run: lifecycle('resume', `${name} resumed`, `${name} was not resumed`) },
      });
    else if (status !== 'terminated' && status !== 'pending_approval')
      actions.push(
        {
          value: `Wake ${name}`,
          label: `Wake ${name}`,
          keywords: ['wake', 'run', 'now'],
          icon: Zap,
          does: { run: wake },
        },
        {
          value: `Pause ${name}`,
          label: `Pause ${name}`,
          keywords: ['pause', 'stop'],
          icon: Pause,
          does: { run: lifecycle('pause', `${name} paused`, `${name} was not paused`) },
        },
      );
    return { actions, steps: {} };
  }

  if (
    subject?.kind === 'approvals' &&
    approval &&
    (approval.status === 'pending' || approval.status === 'revision_requested')
  ) {
    const what = APPROVAL_TYPE_LABELS[approval.type] ?? 'Approval';
    const decide = (decision: 'approve' | 'reject', done: string, refused: string) => () => {
      decideApproval(approval.id, decision)
        .then(() => toast({ tone: 'success', title: done }), failed(refused))
        .finally(() => void refreshApprovals());
    };
    return {
      actions: [
        {
          value: 'Approve',
          label: 'Approve',
          keywords: ['approve', 'accept', 'yes', what],
          icon: Check,
          does: { run: decide('approve', `${what} approved`, `${what} was not approved`) },
        },
        {
          value: 'Reject',
          label: 'Reject',
          keywords: ['reject', 'decline', 'no', what],
          icon: X,
          does: { run: decide('reject', `${what} rejected`, `${what} was not rejected`) },
        },
      ],
      steps: {},
    };
  }
  return { actions: [], steps: {} };
}

/** An action's or a choice's icon before its words. */
export function ActionLead({ action }: { action: PaletteAction }) {
  return action.leading ?? <Icon icon={action.icon ?? CircleDashed} size={14} />;
}

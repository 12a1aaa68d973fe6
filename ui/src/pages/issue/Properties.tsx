// The issue's properties as PropertyRows, each a picker that PATCHes one field. A change the SPEC
// refuses (422: `in_progress` only through checkout, a blocker cycle, another company's project...)
// leaves the stored value shown and says why, in the server's words. `s`, `a` and `p` open the status,
// assignee and priority pickers (IssueKeys).
import { useQuery } from '@tanstack/react-query';
import { FolderKanban, Target } from 'lucide-react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { PriorityIcon } from '../../components/display/PriorityIcon';
import { PropertyRow } from '../../components/display/PropertyRow';
import { LabelChips } from '../../components/labels/LabelChip';
import { LabelPicker } from '../../components/labels/LabelPicker';
import { StatusIcon } from '../../components/display/StatusIcon';
import { Button } from '../../components/ui/Button';
import { issuePriorities, issueStatuses, type IssuePriority, type IssueStatus } from '../../lib/statuses';
import { statusChangedToast } from '../../components/issues/status-toast';
import { agentsQuery } from '../../queries/agents';
import { goalsQuery } from '../../queries/goals';
import { meQuery } from '../../queries/instance';
import type { IssueDetail } from '../../queries/issues';
import { projectsQuery } from '../../queries/projects';
import { IssueSearch } from './IssueSearch';
import { usePatchIssue } from './usePatchIssue';

/** The value buttons' ids: the page's keys open them. */
export const PROPERTY_IDS = { status: 'issue-status', priority: 'issue-priority', assignee: 'issue-assignee' };

// The assignee picker's values: `agent:<id>`, `user:<id>`, or NONE.
const AGENT_OPTION = 'agent:';
const USER_OPTION = 'user:';
const NONE = 'none';
const idAfter = (prefix: string, value: string) => (value.startsWith(prefix) ? value.slice(prefix.length) : null);

export function Properties({
  companyId,
  issue,
  checkoutHolder,
}: {
  companyId: string;
  issue: IssueDetail;
  /** Who holds the checkout, in words ("Dev"), when the issue is checked out. */
  checkoutHolder: string | null;
}) {
  const patch = usePatchIssue(companyId, issue.id);
  const setStatus = (status: IssueStatus, from: IssueStatus = issue.status): void =>
    patch.mutate(
      { status },
      { onSuccess: () => statusChangedToast(issue.identifier, from, status, () => setStatus(from, status)) },
    );
  const agents = useQuery(agentsQuery(companyId));
  const me = useQuery(meQuery());
  const projects = useQuery(projectsQuery(companyId));
  const goals = useQuery(goalsQuery(companyId));
  const meId = me.data?.user.id;
  const assignee = issue.assigneeAgentId
    ? `${AGENT_OPTION}${issue.assigneeAgentId}`
    : issue.assigneeUserId
      ? `${USER_OPTION}${issue.assigneeUserId}`
      : NONE;
  const issueLink = (ref: { identifier: string }) => `/c/${companyId}/issues/${ref.identifier}`;
  const parent = issue.ancestors[0];

  const assigneeOptions = [
    { value: NONE, label: 'Unassigned' },
    ...(meId ? [{ value: `${USER_OPTION}${meId}`, label: 'Me (board)' }] : []),
    ...(issue.assigneeUserId && issue.assigneeUserId !== meId
      ? [{ value: assignee, label: 'Another board user' }]
      : []),
    ...(agents.data ?? []).map((agent) => ({
      value: `${AGENT_OPTION}${agent.id}`,
      label: agent.name,
      leading: <AgentAvatar id={agent.id} name={agent.name} status={agent.status} size={20} />,
    })),
  ];

  return (
    <aside className="issue-properties" aria-label="Properties">
      <h2 className="visually-hidden">Properties</h2>
      {patch.isError && <ErrorNotice error={patch.error} title="The change was refused" />}
      <PropertyRow<IssueStatus>
        label="Status"
        id={PROPERTY_IDS.status}
        value={issue.status}
        onChange={(status) => status !== issue.status && setStatus(status)}
        options={issueStatuses.list.map((status) => ({
          value: status,
          label: issueStatuses.label(status),
          leading: <StatusIcon kind="issue" status={status} size={14} />,
        }))}
      />
      <PropertyRow<IssuePriority>
        label="Priority"
        id={PROPERTY_IDS.priority}
        value={issue.priority}
        onChange={(priority) => priority !== issue.priority && patch.mutate({ priority })}
        options={issuePriorities.list.map((priority) => ({
          value: priority,
          label: issuePriorities.label(priority),
          leading: <PriorityIcon priority={priority} size={14} />,
        }))}
      />
      <PropertyRow
        label="Assignee"
        id={PROPERTY_IDS.assignee}
        value={assignee}
        searchPlaceholder="Find an agent…"
        onChange={(value) =>
          value !== assignee &&
          patch.mutate({ assigneeAgentId: idAfter(AGENT_OPTION, value), assigneeUserId: idAfter(USER_OPTION, value) })
        }
        options={assigneeOptions}
      />
      <p className="property-note muted">{checkoutHolder ? `Checked out by ${checkoutHolder}` : 'Not checked out'}</p>
      <PropertyRow
        label="Project"
        id="issue-project"
        value={issue.projectId ?? NONE}
        onChange={(value) => patch.mutate({ projectId: value === NONE ? null : value })}
        options={[
          { value: NONE, label: 'No project' },
          ...(projects.data ?? []).map((project) => ({ value: project.id, label: project.name, icon: FolderKanban })),
        ]}
      />
      <PropertyRow
        label="Goal"
        id="issue-goal"
        value={issue.goalId ?? NONE}
        onChange={(value) => patch.mutate({ goalId: value === NONE ? null : value })}
        options={[
          { value: NONE, label: issue.goal && !issue.goalId ? `Inherited: ${issue.goal.title}` : 'No goal' },
          ...(goals.data ?? []).map((goal) => ({ value: goal.id, label: goal.title, icon: Target })),
        ]}
      />
      <PropertyRow
        label="Labels"
        id="issue-labels"
        display={
          issue.labelIds.length > 0 ? (
            <LabelChips companyId={companyId} ids={issue.labelIds} />
          ) : (
            <span className="muted">None</span>
          )
        }
      >
        <LabelPicker companyId={companyId} value={issue.labelIds} onChange={(labelIds) => patch.mutate({ labelIds })} />
      </PropertyRow>
      {[agents, projects, goals].map(
        (query, index) =>
          query.isError && (
            <ErrorNotice
              key={index}
              error={query.error}
              retry={() => void query.refetch()}
              title="Choices could not be loaded"
            />
          ),
      )}
      <PropertyRow
        label="Parent"
        id="issue-parent"
        display={parent ? `${parent.identifier} ${parent.title}` : <span className="muted">None</span>}
      >
        {parent && (
          <div className="row">
            <Link to={issueLink(parent)}>
              {parent.identifier} {parent.title}
            </Link>
            <Button
              variant="ghost"
              size="sm"
              aria-label="Remove the parent"
              onClick={() => patch.mutate({ parentId: null })}
            >
              Remove
            </Button>
          </div>
        )}
        <IssueSearch
          companyId={companyId}
          label="Set parent"
          exclude={[issue.id]}
          onPick={(picked) => patch.mutate({ parentId: picked.id })}
        />
      </PropertyRow>
      <PropertyRow
        label="Blocked by"
        id="issue-blocked-by"
        display={
          issue.blockedBy.length > 0 ? (
            issue.blockedBy.map((blocker) => blocker.identifier).join(', ')
          ) : (
            <span className="muted">Nothing</span>
          )
        }
      >
        <ul className="plain-list">
          {issue.blockedBy.map((blocker) => (
            <li key={blocker.id} className="row">
              <StatusIcon kind="issue" status={blocker.status} size={14} />
              <Link to={issueLink(blocker)}>
                {blocker.identifier} {blocker.title}
              </Link>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove blocker ${blocker.identifier}`}
                onClick={() =>
                  patch.mutate({
                    blockedByIssueIds: issue.blockedBy.filter((b) => b.id !== blocker.id).map((b) => b.id),
                  })
                }
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
        <IssueSearch
          companyId={companyId}
          label="Add a blocker"
          exclude={[issue.id, ...issue.blockedBy.map((b) => b.id)]}
          onPick={(picked) => patch.mutate({ blockedByIssueIds: [...issue.blockedBy.map((b) => b.id), picked.id] })}
        />
      </PropertyRow>
      {issue.blocks.length > 0 && (
        <div className="property-row">
          <span className="property-label">Blocks</span>
          <ul className="plain-list property-links">
            {issue.blocks.map((blocked) => (
              <li key={blocked.id}>
                <Link to={issueLink(blocked)}>
                  {blocked.identifier} {blocked.title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </aside>
  );
}

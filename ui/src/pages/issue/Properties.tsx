// The issue's properties, each a labelled control that PATCHes one field. A change the SPEC refuses
// (422: `in_progress` only through checkout, a blocker cycle, another company's project...) snaps the
// control back to the stored value and says why, in the server's words.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { agentStatuses, issuePriorities, issueStatuses } from '../../lib/statuses';
import { agentsQuery } from '../../queries/agents';
import { goalsQuery } from '../../queries/goals';
import { meQuery } from '../../queries/instance';
import type { IssueDetail } from '../../queries/issues';
import { projectsQuery } from '../../queries/projects';
import { IssueSearch } from './IssueSearch';
import { usePatchIssue } from './usePatchIssue';
import { StatusPill } from '../../components/display/StatusPill';

// The assignee select's option values: `agent:<id>`, `user:<id>`, or '' for unassigned.
const AGENT_OPTION = 'agent:';
const USER_OPTION = 'user:';
const idAfter = (prefix: string, value: string) => (value.startsWith(prefix) ? value.slice(prefix.length) : null);

export function Properties({ companyId, issue }: { companyId: string; issue: IssueDetail }) {
  const patch = usePatchIssue(companyId, issue.id);
  const agents = useQuery(agentsQuery(companyId));
  const me = useQuery(meQuery());
  const projects = useQuery(projectsQuery(companyId));
  const goals = useQuery(goalsQuery(companyId));
  const meId = me.data?.user.id;
  const assignee = issue.assigneeAgentId
    ? `${AGENT_OPTION}${issue.assigneeAgentId}`
    : issue.assigneeUserId
      ? `${USER_OPTION}${issue.assigneeUserId}`
      : '';
  const issueLink = (ref: { identifier: string }) => `/c/${companyId}/issues/${ref.identifier}`;

  return (
    <aside className="issue-properties card" aria-label="Properties">
      <h2>Properties</h2>
      {patch.isError && <ErrorNotice error={patch.error} title="The change was refused" />}
      <div className="field">
        <label htmlFor="issue-status">Status</label>
        <select
          id="issue-status"
          value={issue.status}
          onChange={(event) => patch.mutate({ status: event.target.value as IssueDetail['status'] })}
        >
          {issueStatuses.list.map((status) => (
            <option key={status} value={status}>
              {issueStatuses.label(status)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="issue-priority">Priority</label>
        <select
          id="issue-priority"
          value={issue.priority}
          onChange={(event) => patch.mutate({ priority: event.target.value as IssueDetail['priority'] })}
        >
          {issuePriorities.list.map((priority) => (
            <option key={priority} value={priority}>
              {issuePriorities.label(priority)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="issue-assignee">Assignee</label>
        <select
          id="issue-assignee"
          value={assignee}
          onChange={(event) =>
            patch.mutate({
              assigneeAgentId: idAfter(AGENT_OPTION, event.target.value),
              assigneeUserId: idAfter(USER_OPTION, event.target.value),
            })
          }
        >
          <option value="">Unassigned</option>
          {meId && <option value={`${USER_OPTION}${meId}`}>Me (board)</option>}
          {issue.assigneeUserId && issue.assigneeUserId !== meId && (
            <option value={assignee}>Board user {issue.assigneeUserId.slice(0, 8)}</option>
          )}
          {(agents.data ?? []).map((agent) => (
            <option key={agent.id} value={`${AGENT_OPTION}${agent.id}`}>
              {agent.name} ({agentStatuses.label(agent.status).toLowerCase()})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="issue-project">Project</label>
        <select
          id="issue-project"
          value={issue.projectId ?? ''}
          onChange={(event) => patch.mutate({ projectId: event.target.value || null })}
        >
          <option value="">No project</option>
          {(projects.data ?? []).map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="issue-goal">Goal</label>
        <select
          id="issue-goal"
          value={issue.goalId ?? ''}
          onChange={(event) => patch.mutate({ goalId: event.target.value || null })}
        >
          <option value="">{issue.goal && !issue.goalId ? `Inherited: ${issue.goal.title}` : 'No goal'}</option>
          {(goals.data ?? []).map((goal) => (
            <option key={goal.id} value={goal.id}>
              {goal.title}
            </option>
          ))}
        </select>
      </div>
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

      <div className="field">
        <span className="field-label" id="issue-parent-label">
          Parent
        </span>
        {issue.ancestors[0] ? (
          <div className="row">
            <Link to={issueLink(issue.ancestors[0])}>
              <span className="mono">{issue.ancestors[0].identifier}</span> {issue.ancestors[0].title}
            </Link>
            <button
              type="button"
              className="quiet"
              aria-label="Remove the parent"
              onClick={() => patch.mutate({ parentId: null })}
            >
              Remove
            </button>
          </div>
        ) : (
          <span className="muted">None</span>
        )}
        <IssueSearch
          companyId={companyId}
          label="Set parent"
          exclude={[issue.id]}
          onPick={(picked) => patch.mutate({ parentId: picked.id })}
        />
      </div>

      <div className="field">
        <span className="field-label">Blocked by</span>
        {issue.blockedBy.length === 0 && <span className="muted">Nothing</span>}
        <ul className="plain-list">
          {issue.blockedBy.map((blocker) => (
            <li key={blocker.id} className="row">
              <Link to={issueLink(blocker)}>
                <span className="mono">{blocker.identifier}</span> {blocker.title}
              </Link>
              <StatusPill tone={issueStatuses.tone(blocker.status)}>{issueStatuses.label(blocker.status)}</StatusPill>
              <button
                type="button"
                className="quiet"
                aria-label={`Remove blocker ${blocker.identifier}`}
                onClick={() =>
                  patch.mutate({
                    blockedByIssueIds: issue.blockedBy.filter((b) => b.id !== blocker.id).map((b) => b.id),
                  })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        <IssueSearch
          companyId={companyId}
          label="Add a blocker"
          exclude={[issue.id, ...issue.blockedBy.map((b) => b.id)]}
          onPick={(picked) => patch.mutate({ blockedByIssueIds: [...issue.blockedBy.map((b) => b.id), picked.id] })}
        />
      </div>
      {issue.blocks.length > 0 && (
        <div className="field">
          <span className="field-label">Blocks</span>
          <ul className="plain-list">
            {issue.blocks.map((blocked) => (
              <li key={blocked.id}>
                <Link to={issueLink(blocked)}>
                  <span className="mono">{blocked.identifier}</span> {blocked.title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </aside>
  );
}

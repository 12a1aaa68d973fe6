// Create an issue from anywhere (the `c` shortcut, the command palette, the issues page).
// Owned by the issues page; the shell mounts it through GlobalShortcuts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { issuePriorities, issueStatuses, type IssuePriority, type IssueStatus } from '../../lib/statuses';
import { agentsQuery } from '../../queries/agents';
import { goalsQuery } from '../../queries/goals';
import { issueListKeys } from '../../queries/issues';
import { projectsQuery } from '../../queries/projects';
import { issuePath, type CreateIssueBody } from './model';

export interface CreateIssueDialogProps {
  companyId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Fields to start from (a status column, a parent issue). */
  defaults?: { status?: string; parentId?: string; projectId?: string; assigneeAgentId?: string };
}

/** in_progress is reached only by checkout (the server answers 422), so it is not offered here. */
const CREATE_STATUSES = issueStatuses.list.filter((status) => status !== 'in_progress');

export function CreateIssueDialog({ companyId, open, onOpenChange, defaults }: CreateIssueDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New issue">
      {/* Mounted only while open, so each opening starts from the defaults. */}
      {open && <CreateIssueForm companyId={companyId} defaults={defaults} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function CreateIssueForm({
  companyId,
  defaults,
  onDone,
}: {
  companyId: string;
  defaults: CreateIssueDialogProps['defaults'];
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const agents = useQuery(agentsQuery(companyId));
  const projects = useQuery(projectsQuery(companyId));
  const goals = useQuery(goalsQuery(companyId));
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [status, setStatus] = useState<IssueStatus>(
    CREATE_STATUSES.find((known) => known === defaults?.status) ?? 'todo',
  );
  const [priority, setPriority] = useState<IssuePriority>('medium');
  const [assigneeAgentId, setAssignee] = useState(defaults?.assigneeAgentId ?? '');
  const [projectId, setProject] = useState(defaults?.projectId ?? '');
  const [goalId, setGoal] = useState('');
  const [parent, setParent] = useState(defaults?.parentId ?? '');
  const [titleMissing, setTitleMissing] = useState(false);

  const create = useMutation({
    mutationFn: async () => {
      // The parent field takes an identifier (ACME-12) or an id; the detail route resolves both.
      const parentId = parent.trim()
        ? data(await api.GET('/api/issues/{issueId}', { params: { path: { issueId: parent.trim() } } })).id
        : undefined;
      const body: CreateIssueBody = {
        title: title.trim(),
        status,
        priority,
        ...(description.trim() && { description }),
        ...(assigneeAgentId && { assigneeAgentId }),
        ...(projectId && { projectId }),
        ...(goalId && { goalId }),
        ...(parentId && { parentId }),
      };
      return data(await api.POST('/api/companies/{companyId}/issues', { params: { path: { companyId } }, body }));
    },
    onSuccess: (issue) => {
      void queryClient.invalidateQueries({ queryKey: issueListKeys.all(companyId) });
      onDone();
      void navigate(issuePath(companyId, issue));
    },
  });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!title.trim()) {
      setTitleMissing(true);
      return;
    }
    if (!create.isPending) create.mutate();
  };
  // Ctrl/Cmd-Enter sends from any field, the description included.
  const submitOnShortcut = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
  };

  const choicesFailed = [agents, projects, goals].find((query) => query.isError);
  return (
    <form className="issue-create" onSubmit={submit} onKeyDown={submitOnShortcut} noValidate>
      <div className="field">
        <label htmlFor="issue-title">Title</label>
        <input
          id="issue-title"
          autoFocus
          required
          value={title}
          aria-invalid={titleMissing}
          aria-describedby={titleMissing ? 'issue-title-error' : undefined}
          onChange={(event) => {
            setTitle(event.target.value);
            setTitleMissing(false);
          }}
        />
        {titleMissing && (
          <span id="issue-title-error" className="issue-field-error" role="alert">
            A title is required.
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="issue-description">Description</label>
        <textarea
          id="issue-description"
          value={description}
          aria-describedby="issue-description-hint"
          onChange={(event) => setDescription(event.target.value)}
        />
        <span id="issue-description-hint" className="hint">
          Markdown
        </span>
      </div>
      <div className="issue-create-grid">
        <label className="field">
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value as IssueStatus)}>
            {CREATE_STATUSES.map((known) => (
              <option key={known} value={known}>
                {issueStatuses.label(known)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Priority
          <select value={priority} onChange={(event) => setPriority(event.target.value as IssuePriority)}>
            {issuePriorities.list.map((known) => (
              <option key={known} value={known}>
                {issuePriorities.label(known)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Assignee
          <select value={assigneeAgentId} onChange={(event) => setAssignee(event.target.value)}>
            <option value="">No one</option>
            {agents.data
              ?.filter((agent) => agent.status !== 'terminated' && agent.status !== 'pending_approval')
              .map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
          </select>
        </label>
        <label className="field">
          Project
          <select value={projectId} onChange={(event) => setProject(event.target.value)}>
            <option value="">None</option>
            {projects.data?.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Goal
          <select value={goalId} onChange={(event) => setGoal(event.target.value)}>
            <option value="">None</option>
            {goals.data?.map((goal) => (
              <option key={goal.id} value={goal.id}>
                {goal.title}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Parent issue
          <input value={parent} placeholder="e.g. ACME-12" onChange={(event) => setParent(event.target.value)} />
        </label>
      </div>
      {choicesFailed && (
        <ErrorNotice
          error={choicesFailed.error}
          title="Some choices could not be loaded"
          retry={() => void choicesFailed.refetch()}
        />
      )}
      {create.isError && <ErrorNotice error={create.error} title="The issue was not created" />}
      <div className="issue-create-actions">
        <span className="muted">Ctrl/⌘-Enter to create · Esc to close</span>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create issue'}
        </button>
      </div>
    </form>
  );
}

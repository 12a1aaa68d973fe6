// Create an issue from anywhere (the `c` shortcut, the command palette, the issues page).
// Owned by the issues page; the shell mounts it through GlobalShortcuts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { PriorityIcon } from '../../components/display/PriorityIcon';
import { StatusIcon } from '../../components/display/StatusIcon';
import { Select } from '../../components/ui/Combobox';
import { issuePriorities, issueStatuses, type IssuePriority, type IssueStatus } from '../../lib/statuses';
import { agentsQuery } from '../../queries/agents';
import { goalsQuery } from '../../queries/goals';
import { issueListKeys } from '../../queries/issues';
import { projectsQuery } from '../../queries/projects';
import { Decorative } from './Decorative';
import { issuePath, SETTABLE_STATUSES, type CreateIssueBody } from './model';

export interface CreateIssueDialogProps {
  companyId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Fields to start from (a status column, a parent issue). */
  defaults?: { status?: string; parentId?: string; projectId?: string; assigneeAgentId?: string };
}

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
    SETTABLE_STATUSES.find((known) => known === defaults?.status) ?? 'todo',
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
        <Picker label="Status">
          {(id) => (
            <Select
              id={id}
              value={status}
              onChange={setStatus}
              options={SETTABLE_STATUSES.map((known) => ({
                value: known,
                label: issueStatuses.label(known),
                leading: (
                  <Decorative>
                    <StatusIcon kind="issue" status={known} size={14} />
                  </Decorative>
                ),
              }))}
            />
          )}
        </Picker>
        <Picker label="Priority">
          {(id) => (
            <Select
              id={id}
              value={priority}
              onChange={setPriority}
              options={issuePriorities.list.map((known) => ({
                value: known,
                label: issuePriorities.label(known),
                leading: (
                  <Decorative>
                    <PriorityIcon priority={known} size={14} />
                  </Decorative>
                ),
              }))}
            />
          )}
        </Picker>
        <Picker label="Assignee">
          {(id) => (
            <Select
              id={id}
              value={assigneeAgentId}
              onChange={setAssignee}
              options={[
                { value: '', label: 'No one' },
                ...(agents.data ?? [])
                  .filter((agent) => agent.status !== 'terminated' && agent.status !== 'pending_approval')
                  .map((agent) => ({
                    value: agent.id,
                    label: agent.name,
                    leading: (
                      <Decorative>
                        <AgentAvatar id={agent.id} name={agent.name} size={20} />
                      </Decorative>
                    ),
                  })),
              ]}
            />
          )}
        </Picker>
        <Picker label="Project">
          {(id) => (
            <Select
              id={id}
              value={projectId}
              onChange={setProject}
              options={[
                { value: '', label: 'None' },
                ...(projects.data ?? []).map((project) => ({ value: project.id, label: project.name })),
              ]}
            />
          )}
        </Picker>
        <Picker label="Goal">
          {(id) => (
            <Select
              id={id}
              value={goalId}
              onChange={setGoal}
              options={[
                { value: '', label: 'None' },
                ...(goals.data ?? []).map((goal) => ({ value: goal.id, label: goal.title })),
              ]}
            />
          )}
        </Picker>
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

/** A field whose control is a Select: the label names the trigger by id. */
function Picker({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

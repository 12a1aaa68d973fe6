import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { CreatedAgent } from './AgentStep';
import { CreatedSummary, FieldError, StepActions } from './StepActions';

export interface CreatedIssue {
  id: string;
  identifier: string;
  title: string;
}

export function IssueStep({
  companyId,
  agent,
  created,
  onBack,
  onDone,
}: {
  companyId: string;
  agent: CreatedAgent;
  created: CreatedIssue | null;
  onBack: () => void;
  onDone: (issue: CreatedIssue) => void;
}) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string>();
  const create = useMutation({
    // Assigning the issue wakes the agent (SPEC: an assignment is a wake), so its first run starts now.
    mutationFn: async (body: { title: string; description?: string; assigneeAgentId: string; status: 'todo' }) =>
      data(await api.POST('/api/companies/{companyId}/issues', { params: { path: { companyId } }, body })),
    onSuccess: (issue) => onDone({ id: issue.id, identifier: issue.identifier, title: issue.title }),
  });

  if (created)
    return (
      <CreatedSummary
        what="The issue"
        name={`${created.identifier} ${created.title}`}
        onBack={onBack}
        onContinue={() => onDone(created)}
      />
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '') return setError('Give the issue a title.');
    setError(undefined);
    create.mutate({
      title: title.trim(),
      ...(description.trim() && { description: description.trim() }),
      assigneeAgentId: agent.id,
      status: 'todo',
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="issue-step-heading">
      <h2 id="issue-step-heading">A first issue for {agent.name}</h2>
      <div className="field">
        <label htmlFor="issue-title">Title</label>
        <input
          id="issue-title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          autoFocus
          maxLength={500}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'issue-title-error' : undefined}
        />
        <FieldError id="issue-title-error" message={error} />
      </div>
      <div className="field">
        <label htmlFor="issue-description">
          Description <span className="muted">(optional, Markdown)</span>
        </label>
        <textarea
          id="issue-description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          rows={4}
        />
      </div>
      <p className="muted">
        Assigned to <strong>{agent.name}</strong>: creating it wakes the agent.
      </p>
      {create.isError && <ErrorNotice error={create.error} title="The issue could not be created" />}
      <StepActions onBack={onBack}>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create issue and wake the agent'}
        </button>
      </StepActions>
    </form>
  );
}

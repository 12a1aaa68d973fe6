// A new routine: what the work is, who does it and the two policies; triggers are added on its page.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAgentNames } from '../../queries/agents';
import { routineListKeys } from '../../queries/routines';
import { PolicyFields } from './PolicyFields';
import { routinePath, type CatchUpPolicy, type ConcurrencyPolicy } from './model';

export function CreateRoutineDialog({
  companyId,
  open,
  onOpenChange,
}: {
  companyId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New routine">
      {open && <CreateRoutineForm companyId={companyId} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function CreateRoutineForm({ companyId, onDone }: { companyId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { agents } = useAgentNames(companyId);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [assigneeAgentId, setAssignee] = useState('');
  const [concurrencyPolicy, setConcurrency] = useState<ConcurrencyPolicy>('coalesce_if_active');
  const [catchUpPolicy, setCatchUp] = useState<CatchUpPolicy>('skip_missed');

  const create = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/companies/{companyId}/routines', {
          params: { path: { companyId } },
          body: {
            title: title.trim(),
            concurrencyPolicy,
            catchUpPolicy,
            ...(description.trim() && { description }),
            ...(assigneeAgentId && { assigneeAgentId }),
          },
        }),
      ),
    onSuccess: (routine) => {
      void queryClient.invalidateQueries({ queryKey: routineListKeys.all(companyId) });
      onDone();
      void navigate(routinePath(companyId, routine.id));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!create.isPending) create.mutate();
  };

  return (
    <form onSubmit={submit}>
      <div className="field">
        <label htmlFor="routine-title">Title</label>
        <input
          id="routine-title"
          autoFocus
          required
          maxLength={500}
          value={title}
          aria-describedby="routine-title-hint"
          onChange={(event) => setTitle(event.target.value)}
        />
        <span id="routine-title-hint" className="hint">
          The title of each run&apos;s issue.
        </span>
      </div>
      <div className="field">
        <label htmlFor="routine-description">Description</label>
        <textarea
          id="routine-description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="routine-assignee">Agent</label>
        <Select
          id="routine-assignee"
          value={assigneeAgentId}
          aria-describedby="routine-assignee-hint"
          searchPlaceholder="Find an agent…"
          onChange={setAssignee}
          options={[
            { value: '', label: 'No one (the routine starts paused)' },
            ...agents
              .filter((agent) => agent.status !== 'terminated' && agent.status !== 'pending_approval')
              .map((agent) => ({ value: agent.id, label: agent.name })),
          ]}
        />
        <span id="routine-assignee-hint" className="hint">
          Does the work of every run; a routine without an agent does not fire.
        </span>
      </div>
      <PolicyFields
        idPrefix="new-routine"
        concurrency={concurrencyPolicy}
        catchUp={catchUpPolicy}
        onConcurrency={setConcurrency}
        onCatchUp={setCatchUp}
      />
      {create.isError && <ErrorNotice error={create.error} title="The routine was not created" />}
      <DialogActions
        onCancel={onDone}
        label="Create routine"
        busyLabel="Creating…"
        busy={create.isPending}
        disabled={!title.trim()}
      />
    </form>
  );
}

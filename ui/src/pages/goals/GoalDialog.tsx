// Create a goal (top-level or under a parent) or edit one: title, description, level, status, parent, owner.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Select } from '../../components/ui/Combobox';
import { enumLabel } from '../../lib/format';
import { goalStatuses } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { goalKeys, type Goal } from '../../queries/goals';
import { GOAL_LEVELS, subtreeIds } from './goal-tree';

export type GoalDialogState = { mode: 'create'; parentId: string | null } | { mode: 'edit'; goal: Goal };

export function GoalDialog({
  companyId,
  goals,
  state,
  onClose,
}: {
  companyId: string;
  goals: Goal[];
  state: GoalDialogState;
  onClose: () => void;
}) {
  const editing = state.mode === 'edit' ? state.goal : null;
  const parentTitle =
    state.mode === 'create' && state.parentId ? goals.find((goal) => goal.id === state.parentId)?.title : undefined;
  const title = editing ? `Edit ${editing.title}` : parentTitle ? `New sub-goal of ${parentTitle}` : 'New goal';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={title}>
      <GoalForm companyId={companyId} goals={goals} state={state} onDone={onClose} />
    </Dialog>
  );
}

function GoalForm({
  companyId,
  goals,
  state,
  onDone,
}: {
  companyId: string;
  goals: Goal[];
  state: GoalDialogState;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const { agents } = useAgentNames(companyId);
  const editing = state.mode === 'edit' ? state.goal : null;
  const [title, setTitle] = useState(editing?.title ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [level, setLevel] = useState<Goal['level']>(
    editing?.level ?? (state.mode === 'create' && state.parentId ? 'task' : 'company'),
  );
  const [status, setStatus] = useState<Goal['status']>(editing?.status ?? 'planned');
  const [parentId, setParentId] = useState(
    editing ? (editing.parentId ?? '') : state.mode === 'create' ? (state.parentId ?? '') : '',
  );
  const [ownerAgentId, setOwner] = useState(editing?.ownerAgentId ?? '');
  // A goal cannot move under itself or its own descendants.
  const excluded = editing ? subtreeIds(goals, editing.id) : new Set<string>();

  const save = useMutation({
    mutationFn: async () => {
      const body = {
        title: title.trim(),
        description: description.trim() || null,
        level,
        status,
        parentId: parentId || null,
        ownerAgentId: ownerAgentId || null,
      };
      return editing
        ? data(await api.PATCH('/api/goals/{goalId}', { params: { path: { goalId: editing.id } }, body }))
        : data(await api.POST('/api/companies/{companyId}/goals', { params: { path: { companyId } }, body }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: goalKeys.all(companyId) });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!save.isPending) save.mutate();
  };

  return (
    <form onSubmit={submit}>
      <div className="field">
        <label htmlFor="goal-title">Title</label>
        <input
          id="goal-title"
          autoFocus
          required
          maxLength={500}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="goal-description">Description</label>
        <textarea id="goal-description" value={description} onChange={(event) => setDescription(event.target.value)} />
      </div>
      <div className="issue-create-grid">
        <div className="field">
          <label htmlFor="goal-level">Level</label>
          <Select
            id="goal-level"
            value={level}
            onChange={setLevel}
            options={GOAL_LEVELS.map((known) => ({ value: known, label: enumLabel(known) }))}
          />
        </div>
        <div className="field">
          <label htmlFor="goal-status">Status</label>
          <Select
            id="goal-status"
            value={status}
            onChange={setStatus}
            options={goalStatuses.list.map((known) => ({ value: known, label: goalStatuses.label(known) }))}
          />
        </div>
        <div className="field">
          <label htmlFor="goal-owner">Owner</label>
          <Select
            id="goal-owner"
            value={ownerAgentId}
            onChange={setOwner}
            searchPlaceholder="Find an agent…"
            options={[
              { value: '', label: 'No one' },
              ...agents.map((agent) => ({
                value: agent.id,
                label: agent.name,
              })),
            ]}
          />
        </div>
      </div>
      <div className="field">
        <label htmlFor="goal-parent">Parent goal</label>
        <Select
          id="goal-parent"
          value={parentId}
          onChange={setParentId}
          searchPlaceholder="Find a goal…"
          options={[
            { value: '', label: 'None (top level)' },
            ...goals.filter((goal) => !excluded.has(goal.id)).map((goal) => ({ value: goal.id, label: goal.title })),
          ]}
        />
      </div>
      {save.isError && (
        <ErrorNotice error={save.error} title={editing ? 'The goal was not saved' : 'The goal was not created'} />
      )}
      <DialogActions
        onCancel={onDone}
        label={editing ? 'Save goal' : 'Create goal'}
        busyLabel={editing ? 'Saving…' : 'Creating…'}
        busy={save.isPending}
        disabled={!title.trim()}
      />
    </form>
  );
}

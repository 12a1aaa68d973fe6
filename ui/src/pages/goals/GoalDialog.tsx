// Create a goal (top-level or under a parent) or edit one: title, description, level, status, parent, owner.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
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
        <label className="field">
          Level
          <select value={level} onChange={(event) => setLevel(event.target.value as Goal['level'])}>
            {GOAL_LEVELS.map((known) => (
              <option key={known} value={known}>
                {known}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value as Goal['status'])}>
            {goalStatuses.list.map((known) => (
              <option key={known} value={known}>
                {goalStatuses.label(known)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Owner
          <select value={ownerAgentId} onChange={(event) => setOwner(event.target.value)}>
            <option value="">No one</option>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        Parent goal
        <select value={parentId} onChange={(event) => setParentId(event.target.value)}>
          <option value="">None (top level)</option>
          {goals
            .filter((goal) => !excluded.has(goal.id))
            .map((goal) => (
              <option key={goal.id} value={goal.id}>
                {goal.title}
              </option>
            ))}
        </select>
      </label>
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

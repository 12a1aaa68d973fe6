// The company's goals as a tree (parent and children), with create, add-a-sub-goal and edit.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { goalStatuses } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { goalsQuery, type Goal } from '../../queries/goals';
import { GoalDialog, type GoalDialogState } from './GoalDialog';
import { goalTree, type GoalNode } from './goal-tree';
import { StatusPill } from '../../components/display/StatusPill';

export function GoalsPage() {
  const { companyId = '' } = useParams();
  const [dialog, setDialog] = useState<GoalDialogState | null>(null);
  const { nameOf } = useAgentNames(companyId);
  const goals = useQuery(goalsQuery(companyId));

  return (
    <div className="page">
      <PageHeader
        title="Goals"
        actions={
          <button type="button" className="primary" onClick={() => setDialog({ mode: 'create', parentId: null })}>
            New goal
          </button>
        }
      >
        <p className="muted">
          What the company works towards, from company goals down to tasks. Projects and issues point at them.
        </p>
      </PageHeader>
      {dialog && goals.data && (
        <GoalDialog companyId={companyId} goals={goals.data} state={dialog} onClose={() => setDialog(null)} />
      )}
      {goals.isPending ? (
        <Loading label="Loading goals" />
      ) : goals.isError ? (
        <ErrorNotice error={goals.error} title="Goals could not be loaded" retry={() => goals.refetch()} />
      ) : goals.data.length === 0 ? (
        <p className="goal-empty">
          No goals yet. Start with what the company is for; break it down into team and task goals.
        </p>
      ) : (
        <ul className="goal-tree" aria-label="Goal tree">
          {goalTree(goals.data).map((node) => (
            <GoalBranch
              key={node.goal.id}
              node={node}
              ownerName={nameOf}
              onAddChild={(parent) => setDialog({ mode: 'create', parentId: parent.id })}
              onEdit={(goal) => setDialog({ mode: 'edit', goal })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function GoalBranch({
  node,
  ownerName,
  onAddChild,
  onEdit,
}: {
  node: GoalNode;
  ownerName: (id: string) => string;
  onAddChild: (goal: Goal) => void;
  onEdit: (goal: Goal) => void;
}) {
  const { goal, children } = node;
  return (
    <li>
      <div className="goal-node">
        <strong>{goal.title}</strong>
        <span className="badge">{goal.level}</span>
        <StatusPill tone={goalStatuses.tone(goal.status)}>{goalStatuses.label(goal.status)}</StatusPill>
        {goal.ownerAgentId && <span className="muted">{ownerName(goal.ownerAgentId)}</span>}
        <span className="goal-actions">
          <button type="button" onClick={() => onAddChild(goal)}>
            Add sub-goal<span className="visually-hidden"> to {goal.title}</span>
          </button>
          <button type="button" onClick={() => onEdit(goal)}>
            Edit<span className="visually-hidden"> {goal.title}</span>
          </button>
        </span>
      </div>
      {children.length > 0 && (
        <ul aria-label={`Sub-goals of ${goal.title}`}>
          {children.map((child) => (
            <GoalBranch
              key={child.goal.id}
              node={child}
              ownerName={ownerName}
              onAddChild={onAddChild}
              onEdit={onEdit}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

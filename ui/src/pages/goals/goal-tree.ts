// The company's goals as a tree: children under their parent, in the server's order (oldest first).
// A goal whose parent is not in the list (beyond the page) is shown at the top rather than lost.
import type { Goal } from '../../queries/goals';

export interface GoalNode {
  goal: Goal;
  children: GoalNode[];
}

export function goalTree(goals: Goal[]): GoalNode[] {
  const nodes = new Map(goals.map((goal) => [goal.id, { goal, children: [] as GoalNode[] }]));
  const roots: GoalNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.goal.parentId ? nodes.get(node.goal.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The goal and everything under it: not offered as its new parent (the server refuses cycles). */
export function subtreeIds(goals: Goal[], rootId: string): Set<string> {
  const ids = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const goal of goals)
      if (goal.parentId && ids.has(goal.parentId) && !ids.has(goal.id)) {
        ids.add(goal.id);
        grew = true;
      }
  }
  return ids;
}

export const GOAL_LEVELS = ['company', 'team', 'agent', 'task'] as const satisfies readonly Goal['level'][];

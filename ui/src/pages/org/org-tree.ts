// The reportsTo forest of the live agents. An agent whose manager is not among them (terminated, so
// hidden) is a root, and a cycle (the server refuses them; an old row might hold one) cannot loop.
import type { Agent } from '../../queries/agents';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export interface OrgNode {
  agent: Agent;
  children: OrgNode[];
  /** All agents under this one. */
  size: number;
}

export function buildForest(agents: readonly Agent[]): OrgNode[] {
  const nodes = new Map(agents.map((agent) => [agent.id, { agent, children: [], size: 0 } as OrgNode]));
  const roots: OrgNode[] = [];
  for (const node of nodes.values()) {
    const manager = node.agent.reportsTo ? nodes.get(node.agent.reportsTo) : undefined;
    if (manager && !reportsUpTo(node.agent.id, manager, nodes)) manager.children.push(node);
    else roots.push(node);
  }
  // Siblings by name, numbers in names compared as numbers ("Engineer 2" before "Engineer 10").
  const byName = (a: OrgNode, b: OrgNode) => collator.compare(a.agent.name, b.agent.name);
  const finish = (node: OrgNode): number => {
    node.children.sort(byName);
    return (node.size = node.children.reduce((sum, child) => sum + 1 + finish(child), 0));
  };
  roots.sort(byName).forEach(finish);
  return roots;
}

/** Whether `manager`'s own chain leads back to `agentId` (a cycle). */
function reportsUpTo(agentId: string, manager: OrgNode, nodes: Map<string, OrgNode>): boolean {
  const seen = new Set<string>();
  for (
    let current: OrgNode | undefined = manager;
    current;
    current = current.agent.reportsTo ? nodes.get(current.agent.reportsTo) : undefined
  ) {
    if (current.agent.id === agentId) return true;
    if (seen.has(current.agent.id)) return false;
    seen.add(current.agent.id);
  }
  return false;
}

/** Ids of every node with reports (to collapse them all). */
export function managerIds(roots: readonly OrgNode[]): string[] {
  const ids: string[] = [];
  const walk = (node: OrgNode) => {
    if (node.children.length > 0) ids.push(node.agent.id);
    node.children.forEach(walk);
  };
  roots.forEach(walk);
  return ids;
}

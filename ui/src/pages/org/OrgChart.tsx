// The org chart: boxes joined by lines (CSS on nested lists, styles.css "agents and org chart"),
// managers above their reports, and a manager whose reports lead no one stacks them in a column so
// the chart stays narrow at a few hundred agents. It is an ARIA tree: one tab stop, arrow keys move
// (up/down in reading order, right opens or enters a subtree, left closes or goes to the manager),
// Home/End, Enter opens the agent.
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { AgentStatusBadge } from '../../components/agents/AgentStatusBadge';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { enumLabel } from '../../lib/format';
import type { OrgNode } from './org-tree';

interface Visible {
  id: string;
  parentId: string | null;
  hasChildren: boolean;
}

interface OrgChartProps {
  companyId: string;
  roots: OrgNode[];
  collapsed: ReadonlySet<string>;
  onToggle: (id: string, open: boolean) => void;
  focusedId: string | null;
  onFocus: (id: string) => void;
  zoom: number;
}

export function OrgChart({ companyId, roots, collapsed, onToggle, focusedId, onFocus, zoom }: OrgChartProps) {
  const navigate = useNavigate();
  const tree = useRef<HTMLUListElement>(null);
  const visible = useMemo(() => visibleOrder(roots, collapsed), [roots, collapsed]);
  const current = visible.find((v) => v.id === focusedId) ?? visible[0];
  // Focus follows the keyboard only once the tree has it (never steal focus on load or on a live refresh).
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current || !current) return;
    moved.current = false;
    document.getElementById(nodeId(current.id))?.focus();
  }, [current]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
    const index = visible.indexOf(current);
    const go = (target: Visible | undefined) => {
      if (!target) return;
      moved.current = true;
      onFocus(target.id);
    };
    const open = current.hasChildren && !collapsed.has(current.id);
    switch (event.key) {
      case 'ArrowDown':
        go(visible[index + 1]);
        break;
      case 'ArrowUp':
        go(visible[index - 1]);
        break;
      case 'Home':
        go(visible[0]);
        break;
      case 'End':
        go(visible[visible.length - 1]);
        break;
      case 'ArrowRight':
        if (current.hasChildren && !open) onToggle(current.id, true);
        else if (open) go(visible[index + 1]);
        break;
      case 'ArrowLeft':
        if (open) onToggle(current.id, false);
        else go(visible.find((v) => v.id === current.parentId));
        break;
      case 'Enter':
        // void: a navigation's failures show in the route's error element.
        void navigate(`/c/${companyId}/agents/${current.id}`);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div className="org-canvas" style={{ zoom }}>
      <ul ref={tree} role="tree" aria-label="Org chart" className="org-level org-roots" onKeyDown={onKeyDown}>
        {roots.map((root) => (
          <OrgTreeItem
            key={root.agent.id}
            node={root}
            level={1}
            companyId={companyId}
            collapsed={collapsed}
            onToggle={onToggle}
            tabStop={current?.id ?? null}
            onFocus={onFocus}
          />
        ))}
      </ul>
    </div>
  );
}

interface ItemProps {
  node: OrgNode;
  level: number;
  companyId: string;
  collapsed: ReadonlySet<string>;
  onToggle: (id: string, open: boolean) => void;
  tabStop: string | null;
  onFocus: (id: string) => void;
}

function OrgTreeItem({ node, level, companyId, collapsed, onToggle, tabStop, onFocus }: ItemProps) {
  const { agent, children } = node;
  const hasChildren = children.length > 0;
  const open = hasChildren && !collapsed.has(agent.id);
  const stacked = children.every((child) => child.children.length === 0);
  const id = nodeId(agent.id);
  // The box is the treeitem and owns its reports' group (aria-owns), so its name is what the box
  // shows and never the text of the whole subtree below it (axe label-content-name-mismatch).
  return (
    <li role="none" className="org-item">
      <div
        id={id}
        role="treeitem"
        aria-level={level}
        aria-labelledby={`${id}-name ${id}-title ${id}-status`}
        aria-expanded={hasChildren ? open : undefined}
        aria-owns={open ? `${id}-reports` : undefined}
        tabIndex={tabStop === agent.id ? 0 : -1}
        className="org-node"
        onFocus={(event) => {
          if (event.target === event.currentTarget) onFocus(agent.id);
        }}
      >
        <span className="org-node-head">
          {/* Decoration here: the box's name is its visible text, the status badge says the state. */}
          <span aria-hidden="true">
            <AgentAvatar id={agent.id} name={agent.name} status={agent.status} size={20} />
          </span>
          <Link id={`${id}-name`} to={`/c/${companyId}/agents/${agent.id}`} tabIndex={-1} className="org-name row-link">
            {agent.name}
          </Link>
        </span>{' '}
        <span id={`${id}-title`} className="org-title muted">
          {agent.title ?? enumLabel(agent.role)}
        </span>{' '}
        <span className="org-meta">
          <span id={`${id}-status`}>
            <AgentStatusBadge status={agent.status} pauseReason={agent.pauseReason} />
          </span>
          {hasChildren && (
            // Its sign is CSS content (data-sign), so it adds nothing to the box's visible text; the
            // keyboard opens and closes with the arrow keys, and aria-expanded says the state.
            <button
              type="button"
              tabIndex={-1}
              aria-hidden="true"
              className="org-toggle"
              data-sign={open ? '−' : `+${node.size}`}
              title={open ? 'Collapse' : `Expand ${node.size} below`}
              onClick={() => onToggle(agent.id, !open)}
            />
          )}
        </span>
      </div>
      {open && (
        <ul role="group" id={`${id}-reports`} className={`org-level ${stacked ? 'org-stack' : ''}`}>
          {children.map((child) => (
            <OrgTreeItem
              key={child.agent.id}
              node={child}
              level={level + 1}
              companyId={companyId}
              collapsed={collapsed}
              onToggle={onToggle}
              tabStop={tabStop}
              onFocus={onFocus}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

const nodeId = (agentId: string) => `org-${agentId}`;

/** The nodes a reader can reach, in reading order (a collapsed node's reports are not there). */
function visibleOrder(roots: OrgNode[], collapsed: ReadonlySet<string>): Visible[] {
  const out: Visible[] = [];
  const walk = (node: OrgNode, parentId: string | null) => {
    out.push({ id: node.agent.id, parentId, hasChildren: node.children.length > 0 });
    if (!collapsed.has(node.agent.id)) node.children.forEach((child) => walk(child, node.agent.id));
  };
  roots.forEach((root) => walk(root, null));
  return out;
}

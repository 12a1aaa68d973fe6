// The org chart page: the live agents' reportsTo tree (the shared agents list, live through the
// 'agents' resource), with expand/collapse for subtrees and a zoom for large companies.
import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, useParams } from 'react-router';
import { agentsQuery } from '../../queries/agents';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { OrgChart } from './OrgChart';
import { buildForest, managerIds } from './org-tree';

const MIN_ZOOM = 0.3;
const MAX_ZOOM = 1.25;
const ZOOM_STEPS = [MIN_ZOOM, 0.4, 0.5, 0.65, 0.8, 1, MAX_ZOOM];
/** Zooms closer than this are the same step (fit width lands between steps). */
const ZOOM_EPSILON = 0.001;

/** Scrolls the viewport so the root's node is centred horizontally (a wide chart's top in view). */
function centreOn(viewport: HTMLElement | null, rootId: string | undefined) {
  const root = rootId ? document.getElementById(`org-${rootId}`) : null;
  if (!viewport || !root) return;
  const box = root.getBoundingClientRect();
  viewport.scrollLeft += box.left + box.width / 2 - (viewport.getBoundingClientRect().left + viewport.clientWidth / 2);
}

export function OrgPage() {
  const { companyId = '' } = useParams();
  const agents = useQuery(agentsQuery(companyId));
  const roots = useMemo(() => buildForest(agents.data ?? []), [agents.data]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [zoom, setZoom] = useState(1);
  const viewport = useRef<HTMLDivElement>(null);

  const toggle = (id: string, open: boolean) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (open) next.delete(id);
      else next.add(id);
      return next;
    });
  const zoomBy = (direction: 1 | -1) => {
    const next =
      direction === 1
        ? ZOOM_STEPS.find((step) => step > zoom + ZOOM_EPSILON)
        : ZOOM_STEPS.findLast((step) => step < zoom - ZOOM_EPSILON);
    if (next !== undefined) setZoom(next);
  };
  const fit = () => {
    const element = viewport.current;
    const chart = element?.firstElementChild;
    if (!element || !chart) return;
    const naturalWidth = chart.getBoundingClientRect().width / zoom;
    setZoom(Math.max(MIN_ZOOM, Math.min(1, (element.clientWidth - 16) / naturalWidth)));
  };
  // A wide chart opens with its top centred in view, not at its far left corner, and comes back
  // there after expand all / collapse all (a live refresh leaves the view where it is).
  const firstRootId = roots[0]?.agent.id;
  useLayoutEffect(() => centreOn(viewport.current, firstRootId), [firstRootId]);
  const setCollapsedAndCentre = (next: ReadonlySet<string>) => {
    // The chart must have its new layout before it can be centred: render it now, then scroll.
    flushSync(() => setCollapsed(next));
    centreOn(viewport.current, firstRootId);
  };

  const count = agents.data?.length ?? 0;
  return (
    <div className="page page-wide">
      <PageHeader
        title="Org chart"
        actions={
          count > 0 && (
            <div className="org-controls" role="toolbar" aria-label="Org chart view">
              <button type="button" onClick={() => setCollapsedAndCentre(new Set())}>
                Expand all
              </button>
              <button type="button" onClick={() => setCollapsedAndCentre(new Set(managerIds(roots)))}>
                Collapse all
              </button>
              <button type="button" aria-label="Zoom out" onClick={() => zoomBy(-1)} disabled={zoom <= MIN_ZOOM}>
                −
              </button>
              <output className="org-zoom" aria-live="polite" aria-label="Zoom">
                {Math.round(zoom * 100)}%
              </output>
              <button type="button" aria-label="Zoom in" onClick={() => zoomBy(1)} disabled={zoom >= MAX_ZOOM}>
                +
              </button>
              <button type="button" onClick={fit}>
                Fit width
              </button>
            </div>
          )
        }
      >
        {count > 0 && <p className="muted">{count} agents. Arrow keys move through the chart, Enter opens an agent.</p>}
      </PageHeader>
      {agents.isPending && <Loading label="Loading the org chart" />}
      {agents.isError && (
        <ErrorNotice error={agents.error} retry={() => agents.refetch()} title="The org chart could not be loaded" />
      )}
      {agents.data && count === 0 && (
        <p className="notice">
          No agents yet, so no org chart. Agents appear here as they are created; set an agent's manager (reportsTo) to
          place it. See <Link to={`/c/${companyId}/agents`}>Agents</Link>.
        </p>
      )}
      {count > 0 && (
        <div className="org-viewport" ref={viewport}>
          <OrgChart
            companyId={companyId}
            roots={roots}
            collapsed={collapsed}
            onToggle={toggle}
            focusedId={focusedId}
            onFocus={setFocusedId}
            zoom={zoom}
          />
        </div>
      )}
    </div>
  );
}

// The org chart page: the live agents' reportsTo tree (the shared agents list, live through the
// 'agents' resource), with expand/collapse for subtrees and a zoom for large companies.
import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { agentsQuery } from '../../queries/agents';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { OrgChart } from './OrgChart';
import { buildForest, managerIds } from './org-tree';

const ZOOM_STEPS = [0.3, 0.4, 0.5, 0.65, 0.8, 1, 1.25];

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
    const index = ZOOM_STEPS.findIndex((step) => step >= zoom - 0.001);
    setZoom(
      ZOOM_STEPS[
        Math.min(ZOOM_STEPS.length - 1, Math.max(0, (index === -1 ? ZOOM_STEPS.length - 1 : index) + direction))
      ]!,
    );
  };
  const fit = () => {
    const element = viewport.current;
    const chart = element?.firstElementChild;
    if (!element || !chart) return;
    const naturalWidth = chart.getBoundingClientRect().width / zoom;
    setZoom(Math.max(ZOOM_STEPS[0]!, Math.min(1, (element.clientWidth - 16) / naturalWidth)));
  };
  // A wide chart opens with its top centred in view, not at its far left corner, and comes back
  // there after expand all / collapse all (a live refresh leaves the view where it is).
  const firstRootId = roots[0]?.agent.id;
  const [centreRequest, setCentreRequest] = useState(0);
  useLayoutEffect(() => {
    const element = viewport.current;
    const root = firstRootId ? document.getElementById(`org-${firstRootId}`) : null;
    if (!element || !root) return;
    const box = root.getBoundingClientRect();
    element.scrollLeft += box.left + box.width / 2 - (element.getBoundingClientRect().left + element.clientWidth / 2);
  }, [firstRootId, centreRequest]);

  const count = agents.data?.length ?? 0;
  return (
    <div className="page page-wide">
      <PageHeader
        title="Org chart"
        actions={
          count > 0 && (
            <div className="org-controls" role="toolbar" aria-label="Org chart view">
              <button
                type="button"
                onClick={() => {
                  setCollapsed(new Set());
                  setCentreRequest((n) => n + 1);
                }}
              >
                Expand all
              </button>
              <button
                type="button"
                onClick={() => {
                  setCollapsed(new Set(managerIds(roots)));
                  setCentreRequest((n) => n + 1);
                }}
              >
                Collapse all
              </button>
              <button type="button" aria-label="Zoom out" onClick={() => zoomBy(-1)} disabled={zoom <= ZOOM_STEPS[0]!}>
                −
              </button>
              <output className="org-zoom" aria-live="polite" aria-label="Zoom">
                {Math.round(zoom * 100)}%
              </output>
              <button
                type="button"
                aria-label="Zoom in"
                onClick={() => zoomBy(1)}
                disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]!}
              >
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

// Where enabled plugins show on the board's own pages (issue 27 section 5): dashboard widgets and an
// issue's detail tabs, from GET /api/plugins/ui-contributions. Nothing at all when no plugin
// contributes (or the server does not list contributions yet); one failing plugin says so in its own
// card without hiding the others.
import { useQuery } from '@tanstack/react-query';
import { type UiContribution, type UiSlot, uiContributionsQuery } from '../../queries/plugins';
import { TabPanel, Tabs } from '../ui/Tabs';
import { BlocksSlot } from './Blocks';
import { PluginFrame } from './PluginFrame';

export interface PlacedSlot {
  plugin: UiContribution;
  slot: UiSlot;
}

/** The company's contributed slots of one kind (e.g. every dashboard widget), in plugin order. */
export function useSlots(companyId: string, where: (slot: UiSlot) => boolean): PlacedSlot[] {
  const contributions = useQuery(uiContributionsQuery(companyId)).data ?? [];
  return contributions.flatMap((plugin) => plugin.slots.filter(where).map((slot) => ({ plugin, slot })));
}

/** A slot's content, whatever its kind: the board-drawn blocks of its data key, or the plugin's own frame. */
export function SlotContent({
  companyId,
  placed,
  entityId = null,
}: {
  companyId: string;
  placed: PlacedSlot;
  entityId?: string | null;
}) {
  const { plugin, slot } = placed;
  if (slot.kind === 'frame')
    return slot.frameUrl ? (
      <PluginFrame
        companyId={companyId}
        pluginId={plugin.pluginId}
        slotKey={slot.key}
        title={`${plugin.displayName}: ${slot.title}`}
        frameUrl={slot.frameUrl}
        entityId={entityId}
      />
    ) : (
      <p className="muted">This page has no address yet.</p>
    );
  if (!slot.data) return <p className="muted">This panel names no data for the board to show.</p>;
  return (
    <BlocksSlot
      companyId={companyId}
      pluginId={plugin.pluginId}
      dataKey={slot.data}
      entityId={entityId}
      title={slot.title}
    />
  );
}

/** The dashboard's plugin widgets, each in a card named for its plugin. */
export function DashboardWidgets({ companyId }: { companyId: string }) {
  const widgets = useSlots(companyId, (slot) => slot.slot === 'dashboardWidget');
  if (widgets.length === 0) return null;
  return (
    <section className="plugin-widgets" aria-labelledby="plugin-widgets-heading">
      <h2 id="plugin-widgets-heading" className="visually-hidden">
        From plugins
      </h2>
      {widgets.map((placed) => (
        <section
          key={`${placed.plugin.pluginId}-${placed.slot.key}`}
          className="card plugin-widget"
          aria-label={`${placed.slot.title} (${placed.plugin.displayName})`}
        >
          <h3 className="plugin-widget-title">
            {placed.slot.title} <span className="muted">· {placed.plugin.displayName}</span>
          </h3>
          <SlotContent companyId={companyId} placed={placed} />
        </section>
      ))}
    </section>
  );
}

/** What a detail tab attaches to (the manifest's `ui.slots[].entity`). */
export type SlotEntity = 'issue' | 'project' | 'agent' | 'run';

/** A record's plugin tabs (the detail tabs of the company's plugins for its kind), at the end of its page. */
export function EntityPluginTabs({
  companyId,
  entity,
  entityId,
}: {
  companyId: string;
  entity: SlotEntity;
  entityId: string;
}) {
  const tabs = useSlots(companyId, (slot) => slot.slot === 'detailTab' && slot.entity === entity);
  if (tabs.length === 0) return null;
  const value = (placed: PlacedSlot) => `${placed.plugin.pluginId}:${placed.slot.key}`;
  return (
    <section className="plugin-tabs" aria-label="From plugins">
      <Tabs label="Plugin panels" items={tabs.map((placed) => ({ value: value(placed), label: placed.slot.title }))}>
        {tabs.map((placed) => (
          <TabPanel key={value(placed)} value={value(placed)}>
            <SlotContent companyId={companyId} placed={placed} entityId={entityId} />
          </TabPanel>
        ))}
      </Tabs>
    </section>
  );
}

// A page a plugin adds to the company (a `companyPage` slot): its blocks drawn by the board, or its own
// page in a sandboxed frame.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { SlotContent } from '../../components/plugins/PluginSlots';
import { uiContributionsQuery } from '../../queries/plugins';

export function PluginSlotPage() {
  const { companyId = '', pluginId = '', slotKey = '' } = useParams();
  const contributions = useQuery(uiContributionsQuery(companyId));
  if (contributions.isPending) return <Loading label="Loading the plugin page" />;
  if (contributions.isError)
    return (
      <div className="page">
        <ErrorNotice
          error={contributions.error}
          title="The plugin page could not be loaded"
          retry={() => contributions.refetch()}
        />
      </div>
    );
  const plugin = contributions.data.find((candidate) => candidate.pluginId === pluginId);
  const slot = plugin?.slots.find((candidate) => candidate.slot === 'companyPage' && candidate.key === slotKey);
  if (!plugin || !slot)
    return (
      <div className="page">
        <PageHeader title="Plugin page not found" />
        <p>
          This page belongs to a plugin that is not on for this company, or it no longer has it.{' '}
          <Link to={`/c/${companyId}/plugins`}>See this company's plugins</Link>.
        </p>
      </div>
    );
  return (
    <div className="page plugin-slot-page">
      <PageHeader title={slot.title}>
        <p className="muted">
          From the plugin <Link to={`/c/${companyId}/plugins/${pluginId}`}>{plugin.displayName}</Link>
        </p>
      </PageHeader>
      <SlotContent companyId={companyId} placed={{ plugin, slot }} />
    </div>
  );
}

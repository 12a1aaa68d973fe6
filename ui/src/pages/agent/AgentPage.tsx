// One agent: its header (avatar, name, role and status in words, actions) and four tabs whose choice lives in the URL
// (/c/:companyId/agents/:agentId/:tab), so a tab can be linked and reloaded. Radix Tabs gives the
// tablist semantics and arrow-key movement; a tab change replaces the history entry.
import * as Tabs from '@radix-ui/react-tabs';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { AgentStatusBadge } from '../../components/agents/AgentStatusBadge';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { agentQuery, type AgentDetail } from '../../queries/agents';
import { ErrorNotice } from '../../components/ErrorNotice';
import { agentErrorInWords } from '../../components/runs/run-status';
import { Loading } from '../../components/Loading';
import { enumLabel } from '../../lib/format';
import { PageHeader } from '../../components/PageHeader';
import { AgentActions } from './AgentActions';
import { ConfigTab } from './ConfigTab';
import { KeysTab } from './KeysTab';
import { OverviewTab } from './OverviewTab';
import { RunsTab } from './RunsTab';
import { EntityPluginTabs } from '../../components/plugins/PluginSlots';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'runs', label: 'Runs' },
  { id: 'configuration', label: 'Configuration' },
  { id: 'keys', label: 'API keys' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function AgentPage() {
  const { companyId = '', agentId = '', tab = 'overview' } = useParams();
  const navigate = useNavigate();
  const agent = useQuery(agentQuery(companyId, agentId));

  if (!TABS.some((t) => t.id === tab)) return <Navigate to={`/c/${companyId}/agents/${agentId}`} replace />;
  if (agent.isPending)
    return (
      <div className="page">
        <PageHeader title="Agent" />
        <Loading label="Loading the agent" />
      </div>
    );
  if (agent.isError) {
    return (
      <div className="page">
        <PageHeader title="Agent" />
        <ErrorNotice error={agent.error} retry={() => agent.refetch()} title="The agent could not be loaded" />
        <Link to={`/c/${companyId}/agents`}>Back to the agents</Link>
      </div>
    );
  }
  const a = agent.data;
  return (
    <div className="page">
      <div className="agent-head">
        <AgentAvatar id={a.id} name={a.name} status={a.status} size={32} />
        <PageHeader title={a.name} actions={<AgentActions agent={a} />}>
          <p className="agent-subtitle">
            <AgentStatusBadge status={a.status} pauseReason={a.pauseReason} />{' '}
            <span className="muted">{[a.title, enumLabel(a.role)].filter(Boolean).join(' · ')}</span>
          </p>
        </PageHeader>
      </div>
      {a.status === 'error' && a.errorReason && (
        <p className="notice notice-warning">{agentErrorInWords(a.errorReason)}</p>
      )}
      <Tabs.Root
        value={tab}
        // void: a navigation's failures show in the route's error element.
        onValueChange={(next) => void navigate(`/c/${companyId}/agents/${agentId}/${next}`, { replace: true })}
        activationMode="manual"
      >
        <Tabs.List className="tabs" aria-label={`${a.name}: sections`}>
          {TABS.map((t) => (
            <Tabs.Trigger key={t.id} value={t.id}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Content key={t.id} value={t.id} className="agent-tab">
            <TabBody tab={t.id} companyId={companyId} agent={a} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <EntityPluginTabs companyId={companyId} entity="agent" entityId={a.id} />
    </div>
  );
}

function TabBody({ tab, companyId, agent }: { tab: TabId; companyId: string; agent: AgentDetail }) {
  switch (tab) {
    case 'overview':
      return <OverviewTab companyId={companyId} agent={agent} />;
    case 'runs':
      return <RunsTab companyId={companyId} agent={agent} />;
    case 'configuration':
      return <ConfigTab companyId={companyId} agent={agent} />;
    case 'keys':
      return <KeysTab companyId={companyId} agent={agent} />;
  }
}

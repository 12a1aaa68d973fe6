// The company at a glance: what stops work (a banner), the dashboard snapshot as stat cards and
// 14-day KPI sparklines, "Now" (every live run with its last
// log line) and the latest activity. Live through the query keys (resources 'dashboard' and
// 'activity'), never by polling.
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { companiesQuery } from '../../queries/instance';
import { StatCards } from './StatCards';
import { KpiCards } from './KpiCards';
import { AttentionBanner } from './AttentionBanner';
import { LiveRuns } from './LiveRuns';
import { RecentActivity } from './RecentActivity';
import { DashboardWidgets } from '../../components/plugins/PluginSlots';

export function DashboardPage() {
  const { companyId } = useParams() as { companyId: string };
  const company = useQuery(companiesQuery()).data?.find((candidate) => candidate.id === companyId);
  return (
    <div className="page dashboard">
      <PageHeader title="Dashboard">{company && <p className="muted dashboard-company">{company.name}</p>}</PageHeader>
      <AttentionBanner companyId={companyId} />
      <StatCards companyId={companyId} />
      <KpiCards companyId={companyId} />
      <DashboardWidgets companyId={companyId} />
      <div className="dashboard-columns">
        <LiveRuns companyId={companyId} />
        <RecentActivity companyId={companyId} />
      </div>
    </div>
  );
}

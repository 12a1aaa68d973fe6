// Budgets: the company's policies (company, agent and project scopes) with a bar of what each has
// used in its window, open incidents with their way out, and what the budgets have paused. Live
// through the 'budgets' resource: a cost event, an incident or a stop refreshes it.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { budgetOverviewQuery, type Policy } from '../../queries/budgets';
import { useScopes } from './useScopes';
import { IncidentList } from './IncidentList';
import { PolicyDialog } from './PolicyDialog';
import { PolicyTable } from './PolicyTable';

export function BudgetsPage() {
  const { companyId = '' } = useParams();
  const overview = useQuery(budgetOverviewQuery(companyId));
  const scopes = useScopes(companyId);
  // The dialog edits one policy (or creates one when null); a key remounts it with a fresh draft.
  const [editing, setEditing] = useState<{ policy: Policy | null; key: number } | null>(null);
  const openDialog = (policy: Policy | null) => setEditing({ policy, key: Date.now() });

  return (
    <div className="page page-budgets">
      <PageHeader
        title="Budgets"
        actions={
          <button type="button" className="primary" onClick={() => openDialog(null)}>
            New budget…
          </button>
        }
      >
        <p className="muted">
          A budget warns at its threshold and, with a hard stop, pauses its scope and cancels running runs at 100%.
        </p>
      </PageHeader>
      {scopes.error && <ErrorNotice error={scopes.error} title="Agent or project names could not be loaded" />}
      {overview.isError && (
        <ErrorNotice
          error={overview.error}
          title="The budgets could not be loaded"
          retry={() => void overview.refetch()}
        />
      )}
      {overview.isPending && <Loading label="Loading budgets" />}
      {overview.data && (
        <>
          <div className="grid budget-counts">
            <div className="card stat">
              <span className="muted">Agents paused by a budget</span>
              <span className="value">{overview.data.budgetPausedAgentCount}</span>
              <span className="muted">of {overview.data.pausedAgentCount} paused</span>
            </div>
            <div className="card stat">
              <span className="muted">Projects paused</span>
              <span className="value">{overview.data.pausedProjectCount}</span>
            </div>
            <div className="card stat">
              <span className="muted">Open incidents</span>
              <span className="value">{overview.data.activeIncidents.length}</span>
            </div>
            <div className="card stat">
              <span className="muted">Approvals waiting</span>
              <span className="value">{overview.data.pendingApprovalCount}</span>
            </div>
          </div>
          <IncidentList companyId={companyId} incidents={overview.data.activeIncidents} nameOf={scopes.nameOf} />
          <PolicyTable policies={overview.data.policies} nameOf={scopes.nameOf} onEdit={openDialog} />
        </>
      )}
      {editing && (
        <PolicyDialog
          key={editing.key}
          companyId={companyId}
          policy={editing.policy}
          scopes={scopes}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      )}
    </div>
  );
}

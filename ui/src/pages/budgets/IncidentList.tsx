// Open budget incidents: warnings and stops, each resolved with the dialog the inbox uses.
import { budgetAmount } from '../../components/budgets/amounts';
import { ResolveIncidentButton } from '../../components/budgets/ResolveIncidentButton';
import { fullTime, timeAgo } from '../../lib/format';
import type { Incident } from '../../queries/budgets';
import { TableScroll } from '../../components/TableScroll';

export function IncidentList({
  companyId,
  incidents,
  nameOf,
}: {
  companyId: string;
  incidents: Incident[];
  nameOf: (type: string, id: string) => string;
}) {
  return (
    <section className="card" aria-labelledby="budget-incidents">
      <h2 id="budget-incidents">Open incidents</h2>
      {incidents.length === 0 ? (
        <p className="muted">
          No open incidents: every budget is under its warn threshold, or its incident was resolved.
        </p>
      ) : (
        <TableScroll label={'Open incidents'}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Scope</th>
                <th scope="col">What happened</th>
                <th scope="col">Raised</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {incidents.map((i) => {
                const name = nameOf(i.scopeType, i.scopeId);
                return (
                  <tr key={i.id}>
                    <th scope="row">
                      {name} <span className="muted">({i.scopeType})</span>
                    </th>
                    <td>
                      <span className={`badge ${i.kind === 'hard' ? 'badge-danger' : 'badge-warning'}`}>
                        {i.kind === 'hard'
                          ? i.pausedAgentIds.length > 0 || i.pausedProjectId
                            ? 'Stopped'
                            : 'Limit reached'
                          : 'Warning'}
                      </span>{' '}
                      {budgetAmount(i.metric, i.observed)} of {budgetAmount(i.metric, i.amount)}
                    </td>
                    <td>
                      <time dateTime={i.createdAt} title={fullTime(i.createdAt)}>
                        {timeAgo(i.createdAt)}
                      </time>
                    </td>
                    <td>
                      <ResolveIncidentButton
                        companyId={companyId}
                        item={{
                          incidentId: i.id,
                          incidentKind: i.kind,
                          scopeType: i.scopeType,
                          scopeName: name,
                          metric: i.metric,
                          observed: i.observed,
                        }}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

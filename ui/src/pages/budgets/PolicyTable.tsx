// Active policies by scope (the company, then agents, then projects), each with its usage bar.
import { budgetAmount } from '../../components/budgets/amounts';
import { BudgetBar } from '../../components/budgets/BudgetBar';
import type { Policy } from '../../queries/budgets';
import { TableScroll } from '../../components/TableScroll';

const SCOPES = [
  { type: 'company', heading: 'Company' },
  { type: 'agent', heading: 'Agents' },
  { type: 'project', heading: 'Projects' },
] as const;
const METRIC: Record<string, string> = { billed_cents: 'Spend', tokens: 'Tokens', runs: 'Runs' };
const WINDOW: Record<string, string> = { calendar_month_utc: 'Monthly', lifetime: 'Lifetime' };

export function PolicyTable({
  policies,
  nameOf,
  onEdit,
}: {
  policies: Policy[];
  nameOf: (type: string, id: string) => string;
  onEdit: (policy: Policy) => void;
}) {
  return (
    <>
      {SCOPES.map(({ type, heading }) => {
        const rows = policies
          .filter((p) => p.scopeType === type)
          .sort((a, b) => nameOf(a.scopeType, a.scopeId).localeCompare(nameOf(b.scopeType, b.scopeId)));
        return (
          <section key={type} className="card" aria-labelledby={`budgets-${type}`}>
            <h2 id={`budgets-${type}`}>{heading}</h2>
            {rows.length === 0 ? (
              <p className="muted">No {type} budget. Use “New budget…” to add one.</p>
            ) : (
              <TableScroll label={`${heading} budgets`}>
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Scope</th>
                      <th scope="col">Budget</th>
                      <th scope="col">Used this window</th>
                      <th scope="col">Warn</th>
                      <th scope="col">Hard stop</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((p) => {
                      const name = nameOf(p.scopeType, p.scopeId);
                      return (
                        <tr key={p.id}>
                          <th scope="row">{name}</th>
                          <td>
                            {budgetAmount(p.metric, p.amount)}
                            <div className="muted">
                              {METRIC[p.metric]} · {WINDOW[p.windowKind]}
                            </div>
                          </td>
                          <td>
                            <BudgetBar
                              name={`${name} ${METRIC[p.metric]?.toLowerCase()} budget`}
                              metric={p.metric}
                              observed={p.observed}
                              amount={p.amount}
                              warnPercent={p.warnPercent}
                            />
                          </td>
                          <td>{p.notifyEnabled ? `${p.warnPercent}%` : 'Off'}</td>
                          <td>{p.hardStopEnabled ? 'On' : 'Off'}</td>
                          <td>
                            <button type="button" onClick={() => onEdit(p)} aria-label={`Edit the budget of ${name}`}>
                              Edit…
                            </button>
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
      })}
    </>
  );
}

// The server's plan for an import, per kind: what each record becomes (create, update, skip), the
// name it will have, and why.
import type { paths } from '../../api/schema';

type Preview = paths['/api/companies/import/preview']['post']['responses'][200]['content']['application/json'];
type Plan = Preview['plan'];
type Entry = Plan['agentPlans'][number];

const KINDS: { key: Exclude<keyof Plan, 'companyAction' | 'companyName'>; label: string }[] = [
  { key: 'agentPlans', label: 'Agents' },
  { key: 'projectPlans', label: 'Projects' },
  { key: 'goalPlans', label: 'Goals' },
  { key: 'issuePlans', label: 'Issues' },
  { key: 'routinePlans', label: 'Routines' },
  { key: 'skillPlans', label: 'Skills' },
];
const COMPANY_ACTION = {
  create: 'A new company',
  update: 'Into this company, its settings overwritten',
  none: 'Into this company, its settings unchanged',
} as const;
const ACTION_BADGE = { create: 'badge-success', update: 'badge-warning', skip: '' } as const;

export function ActionBadge({ action }: { action: Entry['action'] }) {
  return <span className={`badge ${ACTION_BADGE[action]}`}>{action}</span>;
}

export function ImportPlan({ plan }: { plan: Plan }) {
  return (
    <>
      <h3>Plan</h3>
      <p>
        <strong>{COMPANY_ACTION[plan.companyAction]}</strong>: {plan.companyName}
      </p>
      {KINDS.filter(({ key }) => plan[key].length > 0).map(({ key, label }) => (
        <table className="table portability-plan" key={key}>
          <caption>
            {label} ({plan[key].length})
          </caption>
          <thead>
            <tr>
              <th scope="col">Bundle slug</th>
              <th scope="col">Action</th>
              <th scope="col">Planned name</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {plan[key].map((entry) => (
              <tr key={entry.slug}>
                <td>
                  <code>{entry.slug}</code>
                </td>
                <td>
                  <ActionBadge action={entry.action} />
                </td>
                <td>{entry.plannedName}</td>
                <td className="muted">{entry.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </>
  );
}

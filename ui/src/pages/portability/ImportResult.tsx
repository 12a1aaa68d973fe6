// What an applied import did: the company and, per kind, how many records were created, updated or
// skipped, the warnings, and a link to a new company (this company's lists refresh on their own).
import { Link } from 'react-router';
import type { paths } from '../../api/schema';
import { Warnings } from './ExportPanel';

type Result = paths['/api/companies/import']['post']['responses'][201]['content']['application/json'];
const KINDS = ['agents', 'projects', 'goals', 'issues', 'routines', 'skills'] as const;

function tally(entries: Result['agents']): string {
  const by = (action: string) => entries.filter((entry) => entry.action === action).length;
  return [
    `${by('create')} created`,
    by('update') > 0 && `${by('update')} updated`,
    by('skip') > 0 && `${by('skip')} skipped`,
  ]
    .filter(Boolean)
    .join(', ');
}

export function ImportResult({ result, newCompany }: { result: Result; newCompany: boolean }) {
  return (
    <div className="notice portability-result" role="status">
      <strong>
        Imported {newCompany ? 'as the new company' : 'into'} {result.company.name} ({result.company.action})
      </strong>
      <ul>
        {KINDS.filter((kind) => result[kind].length > 0).map((kind) => (
          <li key={kind}>
            {kind}: {tally(result[kind])}
          </li>
        ))}
      </ul>
      <p className="muted">
        Imported agents and routines are paused: resume them when their configuration is right for this instance.
      </p>
      <Warnings warnings={result.warnings} />
      {newCompany && (
        <Link to={`/c/${result.company.id}`} className="button primary">
          Open {result.company.name}
        </Link>
      )}
    </div>
  );
}

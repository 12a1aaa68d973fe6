// A list of environment or doctor checks, each passed or failed with its detail: the doctor card and
// every adapter's environment check show them alike.
export function CheckList({
  checks,
  label,
}: {
  checks: { name: string; ok: boolean; detail: string }[];
  label: string;
}) {
  return (
    <ul className="check-list" aria-label={label}>
      {checks.map((check, index) => (
        <li key={`${check.name}-${index}`}>
          <span className={`badge ${check.ok ? 'badge-success' : 'badge-danger'}`}>{check.ok ? 'ok' : 'fail'}</span>{' '}
          <strong>{check.name}</strong> <span className="check-detail">{check.detail}</span>
        </li>
      ))}
    </ul>
  );
}

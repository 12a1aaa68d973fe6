// An approval's payload, readable: a hire as the agent it would create, the recommended fields of a
// board request (title, summary, recommended action, risks), anything else as a list of its
// fields; the raw JSON on demand.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Markdown } from '../../components/Markdown';
import { cents } from '../../lib/format';

type Payload = Record<string, unknown>;

export function PayloadView({
  type,
  status,
  payload,
  agentName,
  companyId,
}: {
  type: string;
  status: string;
  payload: Payload;
  agentName: (id: string) => string;
  companyId: string;
}) {
  return (
    <>
      {type === 'hire_agent' ? (
        <HireCard payload={payload} hired={status === 'approved'} agentName={agentName} companyId={companyId} />
      ) : (
        <Fields payload={payload} />
      )}
      <details className="approval-raw">
        <summary>Raw JSON</summary>
        <pre className="approval-json">{JSON.stringify(payload, null, 2)}</pre>
      </details>
    </>
  );
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

function HireCard({
  payload,
  hired,
  agentName,
  companyId,
}: {
  payload: Payload;
  hired: boolean;
  agentName: (id: string) => string;
  companyId: string;
}) {
  const agentId = text(payload.agentId);
  const manager = text(payload.reportsTo);
  const budget = typeof payload.budgetMonthlyCents === 'number' ? payload.budgetMonthlyCents : null;
  const config =
    payload.adapterConfig && typeof payload.adapterConfig === 'object' ? (payload.adapterConfig as Payload) : {};
  const rows: [string, ReactNode][] = [
    [
      'Name',
      hired && agentId ? (
        <Link to={`/c/${companyId}/agents/${agentId}`}>{text(payload.name) ?? agentName(agentId)}</Link>
      ) : (
        (text(payload.name) ?? '(unnamed)')
      ),
    ],
    ['Role', text(payload.role) ?? 'general'],
    ...(text(payload.title) ? ([['Title', text(payload.title)]] as [string, ReactNode][]) : []),
    ['Adapter', text(payload.adapterType) ?? 'unknown'],
    [
      'Manager',
      manager ? (
        <Link to={`/c/${companyId}/agents/${manager}`}>{agentName(manager)}</Link>
      ) : (
        'none (reports to the board)'
      ),
    ],
    ['Monthly budget', budget ? cents(budget) : 'none'],
    ...(text(payload.capabilities) ? ([['Capabilities', text(payload.capabilities)]] as [string, ReactNode][]) : []),
    ...(Object.keys(config).length
      ? ([['Adapter settings', Object.keys(config).join(', ')]] as [string, ReactNode][])
      : []),
  ];
  return (
    <div className="card" aria-label="Proposed agent">
      <dl className="approval-props">
        {rows.map(([label, value]) => (
          <Row key={label} label={label} value={value} />
        ))}
      </dl>
    </div>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

const KNOWN = ['title', 'summary', 'recommendedAction', 'risks'];

function Fields({ payload }: { payload: Payload }) {
  const risks = Array.isArray(payload.risks)
    ? payload.risks.filter((risk): risk is string => typeof risk === 'string')
    : [];
  const rest = Object.entries(payload).filter(([key]) => !KNOWN.includes(key));
  const summary = text(payload.summary);
  return (
    <div className="card">
      {text(payload.title) && <h3>{text(payload.title)}</h3>}
      {summary && <Markdown text={summary} />}
      {text(payload.recommendedAction) && (
        <p>
          <strong>Recommended action:</strong> {text(payload.recommendedAction)}
        </p>
      )}
      {risks.length > 0 && (
        <>
          <h3>Risks</h3>
          <ul>
            {risks.map((risk, index) => (
              <li key={index}>{risk}</li>
            ))}
          </ul>
        </>
      )}
      {rest.length > 0 && (
        <dl className="approval-props">
          {rest.map(([key, value]) => (
            <Row
              key={key}
              label={key}
              value={typeof value === 'object' && value !== null ? <code>{JSON.stringify(value)}</code> : String(value)}
            />
          ))}
        </dl>
      )}
      {Object.keys(payload).length === 0 && <p className="muted">The payload is empty.</p>}
    </div>
  );
}

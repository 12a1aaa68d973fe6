// Where the money went, per currency (never added across currencies), then per biller and kind.
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { moneyIn } from '../../lib/format';
import { financeSummaryQuery } from '../../queries/finance';
import { TableScroll } from '../../components/TableScroll';

interface Totals {
  currency: string;
  debitCents: number;
  creditCents: number;
  netCents: number;
  eventCount: number;
}

function TotalsTable<T extends Totals>({
  caption,
  keyLabel,
  rows,
  keyOf,
}: {
  caption: string;
  keyLabel: string | null;
  rows: T[];
  keyOf: (row: T) => string;
}) {
  return (
    <TableScroll label={caption}>
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {keyLabel && <th scope="col">{keyLabel}</th>}
            <th scope="col">Currency</th>
            <th scope="col" className="num">
              Debits (out)
            </th>
            <th scope="col" className="num">
              Credits (in)
            </th>
            <th scope="col" className="num">
              Net
            </th>
            <th scope="col" className="num">
              Events
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${keyOf(r)}-${r.currency}`}>
              {keyLabel && <th scope="row">{keyOf(r)}</th>}
              <td>{r.currency}</td>
              <td className="num">{moneyIn(r.debitCents, r.currency)}</td>
              <td className="num">{moneyIn(r.creditCents, r.currency)}</td>
              <td className="num">{moneyIn(r.netCents, r.currency)}</td>
              <td className="num">{r.eventCount.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function FinanceSummary({ companyId }: { companyId: string }) {
  const summary = useQuery(financeSummaryQuery(companyId));
  if (summary.isError)
    return (
      <ErrorNotice
        error={summary.error}
        title="The finance summary could not be loaded"
        retry={() => void summary.refetch()}
      />
    );
  if (!summary.data) return <Loading label="Loading the finance summary" />;
  const { summary: totals, byBiller, byKind } = summary.data;
  if (totals.currencies.length === 0) {
    return (
      <section className="card" aria-labelledby="finance-summary">
        <h2 id="finance-summary">Summary</h2>
        <p className="muted">No finance events yet: record invoices, fees, credit purchases and refunds below.</p>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="finance-summary">
      <h2 id="finance-summary">Summary</h2>
      <TotalsTable caption="Totals per currency" keyLabel={null} rows={totals.currencies} keyOf={(r) => r.currency} />
      <h3>By biller</h3>
      <TotalsTable
        caption="Totals by biller"
        keyLabel="Biller"
        rows={byBiller}
        keyOf={(r) => r.biller ?? 'No biller'}
      />
      <h3>By kind</h3>
      <TotalsTable caption="Totals by kind" keyLabel="Kind" rows={byKind} keyOf={(r) => r.kind} />
    </section>
  );
}

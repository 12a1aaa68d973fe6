// The newest finance events, a page at a time up to the API's 500.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, moneyIn, timeAgo } from '../../lib/format';
import { FINANCE_MAX, FINANCE_PAGE, financeEventsQuery } from '../../queries/finance';
import { TableScroll } from '../../components/TableScroll';

export function FinanceEvents({ companyId }: { companyId: string }) {
  const [limit, setLimit] = useState(FINANCE_PAGE);
  const events = useQuery(financeEventsQuery(companyId, limit));
  return (
    <section className="card" aria-labelledby="finance-events">
      <h2 id="finance-events">Events</h2>
      {events.isError && (
        <ErrorNotice
          error={events.error}
          title="The finance events could not be loaded"
          retry={() => void events.refetch()}
        />
      )}
      {events.isPending && <Loading label="Loading finance events" />}
      {events.data?.length === 0 && <p className="muted">None recorded yet.</p>}
      {events.data && events.data.length > 0 && (
        <TableScroll label={'Finance events'}>
          <table className="table">
            <caption className="visually-hidden">Finance events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Biller</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {events.data.map((e) => (
                <tr key={e.id}>
                  <td>
                    <time dateTime={e.occurredAt} title={fullTime(e.occurredAt)}>
                      {timeAgo(e.occurredAt)}
                    </time>
                  </td>
                  <th scope="row">{e.kind}</th>
                  <td>{e.biller ?? <span className="muted">none</span>}</td>
                  <td className="num">
                    {e.direction === 'credit' ? '+' : '−'}
                    {moneyIn(e.amountCents, e.currency)} <span className="muted">{e.direction}</span>
                    {e.estimated && <span className="badge">estimate</span>}
                  </td>
                  <td>{e.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {events.data && events.data.length === limit && limit < FINANCE_MAX && (
        <button type="button" onClick={() => setLimit(Math.min(FINANCE_MAX, limit + FINANCE_PAGE))}>
          Show more
        </button>
      )}
      {events.data && events.data.length === FINANCE_MAX && <p className="muted">Showing the newest {FINANCE_MAX}.</p>}
    </section>
  );
}

// Metered spend apart from usage a subscription already covers: subscription-included events are
// recorded at 0 cents, so only their tokens say how much was used.
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { cents, plural, tokenCount } from '../../lib/format';
import { billingTypeQuery, type WindowId } from '../../queries/costs';
import { TableScroll } from '../../components/TableScroll';

const LABEL: Record<string, string> = {
  metered_api: 'Metered API',
  subscription_included: 'Included in a subscription',
  subscription_overage: 'Subscription overage',
  credits: 'Prepaid credits',
  fixed: 'Fixed price',
  unknown: 'Not stated',
};

export function BillingTypes({ companyId, window }: { companyId: string; window: WindowId }) {
  const types = useQuery(billingTypeQuery(companyId, window));
  if (types.isError)
    return (
      <ErrorNotice
        error={types.error}
        title="Spend by billing type could not be loaded"
        retry={() => void types.refetch()}
      />
    );
  if (!types.data) return <Loading label="Loading billing types" />;
  const included = types.data.filter((t) => t.billingType === 'subscription_included');
  const billed = types.data.filter((t) => t.billingType !== 'subscription_included');
  const sum = (rows: typeof types.data, field: 'costCents' | 'inputTokens' | 'outputTokens' | 'eventCount') =>
    rows.reduce((total, r) => total + r[field], 0);
  return (
    <section className="card" aria-labelledby="billing-types-heading">
      <h2 id="billing-types-heading">Metered spend and subscription usage</h2>
      <div className="grid">
        <div className="stat">
          <span className="muted">Billed spend</span>
          <span className="value">{cents(sum(billed, 'costCents'))}</span>
          <span className="muted">
            {tokenCount(sum(billed, 'inputTokens'))} in · {tokenCount(sum(billed, 'outputTokens'))} out
          </span>
        </div>
        <div className="stat">
          <span className="muted">Included in subscriptions</span>
          <span className="value">
            {tokenCount(sum(included, 'inputTokens') + sum(included, 'outputTokens'))} tokens
          </span>
          <span className="muted">{plural(sum(included, 'eventCount'), 'event')}, no metered cost</span>
        </div>
      </div>
      {types.data.length > 0 && (
        <TableScroll label={'Spend by billing type'}>
          <table className="table cost-table">
            <caption className="visually-hidden">Spend by billing type</caption>
            <thead>
              <tr>
                <th scope="col">Billing type</th>
                <th scope="col" className="num">
                  Cost
                </th>
                <th scope="col" className="num">
                  Input tokens
                </th>
                <th scope="col" className="num">
                  Output tokens
                </th>
                <th scope="col" className="num">
                  Events
                </th>
              </tr>
            </thead>
            <tbody>
              {types.data.map((t) => (
                <tr key={t.billingType}>
                  <th scope="row">{LABEL[t.billingType] ?? t.billingType}</th>
                  <td className="num">{cents(t.costCents)}</td>
                  <td className="num">{tokenCount(t.inputTokens)}</td>
                  <td className="num">{tokenCount(t.outputTokens)}</td>
                  <td className="num">{t.eventCount.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

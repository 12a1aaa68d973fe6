// Finance events: money that is not token usage (invoices, fees, credit purchases, refunds), the
// totals they add up to per currency, biller and kind, and a form to record one. Board only.
import { useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { FinanceEvents } from './FinanceEvents';
import { FinanceSummary } from './FinanceSummary';
import { RecordFinanceEvent } from './RecordFinanceEvent';

export function FinancePage() {
  const { companyId = '' } = useParams();
  return (
    <div className="page page-finance">
      <PageHeader title="Finance">
        <p className="muted">
          Money that is not token usage. Cost events (what runs report) are on the Costs page and never counted here.
        </p>
      </PageHeader>
      <FinanceSummary companyId={companyId} />
      <RecordFinanceEvent companyId={companyId} />
      <FinanceEvents companyId={companyId} />
    </div>
  );
}

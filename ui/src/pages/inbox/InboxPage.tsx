import { PageHeader } from '../../components/PageHeader';

export function InboxPage() {
  return (
    <div className="page">
      <PageHeader title="Inbox" />
    </div>
  );
}

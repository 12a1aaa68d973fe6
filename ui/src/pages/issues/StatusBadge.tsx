import { issueStatuses, type IssueStatus } from '../../lib/statuses';

export function StatusBadge({ status }: { status: IssueStatus }) {
  return <span className={`badge ${issueStatuses.tone(status)}`}>{issueStatuses.label(status)}</span>;
}

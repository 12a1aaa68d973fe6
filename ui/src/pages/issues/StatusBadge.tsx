import { StatusPill } from '../../components/display/StatusPill';
import { issueStatuses, type IssueStatus } from '../../lib/statuses';

export function StatusBadge({ status }: { status: IssueStatus }) {
  return <StatusPill tone={issueStatuses.tone(status)}>{issueStatuses.label(status)}</StatusPill>;
}

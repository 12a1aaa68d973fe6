import { statusLabel, type IssueStatus } from './model';

const TONE: Partial<Record<IssueStatus, string>> = {
  in_progress: 'badge-accent',
  blocked: 'badge-warning',
  done: 'badge-success',
};

export function StatusBadge({ status }: { status: IssueStatus }) {
  return <span className={`badge ${TONE[status] ?? ''}`}>{statusLabel(status)}</span>;
}

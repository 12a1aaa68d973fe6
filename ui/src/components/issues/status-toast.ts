// A status change said back, with Undo: the same toast wherever a person moves an issue (its page,
// a list row, a board card). Undo moves it back to the status it had, through the same path.
import { toast } from '../ui/Toast';
import { issueStatuses, type IssueStatus } from '../../lib/statuses';

export function statusChangedToast(identifier: string, from: IssueStatus, to: IssueStatus, undo: () => void): void {
  toast({
    tone: 'success',
    title: `${identifier} is now ${issueStatuses.label(to)}`,
    description: `It was ${issueStatuses.label(from)}.`,
    action: { label: 'Undo', onClick: undo },
  });
}

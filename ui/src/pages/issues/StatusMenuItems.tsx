// The statuses a person can set, as menu items with their icons: one list for a row's menu, a card's
// menu and the bulk bar.
import { StatusIcon } from '../../components/display/StatusIcon';
import { MenuItem } from '../../components/ui/Menu';
import { issueStatuses, type IssueStatus } from '../../lib/statuses';
import { Decorative } from './Decorative';
import { SETTABLE_STATUSES } from './model';

export function StatusMenuItems({ current, onPick }: { current?: IssueStatus; onPick: (status: IssueStatus) => void }) {
  return SETTABLE_STATUSES.filter((status) => status !== current).map((status) => (
    <MenuItem
      key={status}
      leading={
        <Decorative>
          <StatusIcon kind="issue" status={status} size={14} />
        </Decorative>
      }
      onSelect={() => onPick(status)}
    >
      {issueStatuses.label(status)}
    </MenuItem>
  ));
}

// What the selected issues can have done to them at once: a status, an assignee. One request per
// issue (see bulk.ts); progress while they answer, and which failed and why.
import { CircleDot, UserRound, X } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { Banner } from '../../components/ui/Banner';
import { Button, IconButton } from '../../components/ui/Button';
import { Menu, MenuItem, MenuSeparator } from '../../components/ui/Menu';
import { toast } from '../../components/ui/Toast';
import { issueStatuses } from '../../lib/statuses';
import { agentsQuery } from '../../queries/agents';
import type { Issue } from '../../queries/issues';
import { Decorative } from './Decorative';
import { StatusMenuItems } from './StatusMenuItems';
import { useBulkUpdate, type IssueChange } from './bulk';

export function BulkBar({
  companyId,
  selected,
  onClear,
  onKeep,
}: {
  companyId: string;
  /** The selected issues among those loaded. */
  selected: Issue[];
  onClear: () => void;
  /** After some failed: keep just those selected, to try again. */
  onKeep: (issueIds: string[]) => void;
}) {
  const agents = useQuery(agentsQuery(companyId)).data ?? [];
  const bulk = useBulkUpdate(companyId);
  const running = bulk.progress?.running ?? false;
  const apply = async (change: IssueChange, what: string) => {
    const failures = await bulk.run(selected, change);
    const changed = selected.length - failures.length;
    if (failures.length === 0) {
      toast({ tone: 'success', title: `${what} on ${changed} ${changed === 1 ? 'issue' : 'issues'}` });
      bulk.dismiss();
      onClear();
    } else onKeep(failures.map((failure) => failure.issue.id));
  };
  const progress = bulk.progress;
  return (
    <div className="issue-bulk" role="region" aria-label="Selected issues">
      <div className="issue-bulk-bar">
        <strong>{selected.length} selected</strong>
        <Menu
          trigger={
            <Button size="sm" icon={CircleDot} disabled={running}>
              Set status
            </Button>
          }
          label="Set status"
        >
          <StatusMenuItems
            onPick={(status) => void apply({ status }, `Status set to ${issueStatuses.label(status)}`)}
          />
        </Menu>
        <Menu
          trigger={
            <Button size="sm" icon={UserRound} disabled={running}>
              Set assignee
            </Button>
          }
          label="Set assignee"
        >
          {agents
            .filter((agent) => agent.status !== 'terminated' && agent.status !== 'pending_approval')
            .map((agent) => (
              <MenuItem
                key={agent.id}
                leading={
                  <Decorative>
                    <AgentAvatar id={agent.id} name={agent.name} size={20} />
                  </Decorative>
                }
                onSelect={() => void apply({ assigneeAgentId: agent.id }, `Assigned to ${agent.name}`)}
              >
                {agent.name}
              </MenuItem>
            ))}
          <MenuSeparator />
          <MenuItem onSelect={() => void apply({ assigneeAgentId: null }, 'Unassigned')}>No one</MenuItem>
        </Menu>
        {progress?.running && (
          <span role="status" className="muted">
            Updating {progress.done} of {progress.total}…
          </span>
        )}
        <IconButton icon={X} size="sm" aria-label="Clear the selection" onClick={onClear} disabled={running} />
      </div>
      {progress && !progress.running && progress.failures.length > 0 && (
        <Banner
          tone="danger"
          title={`${progress.failures.length} of ${progress.total} issues were not changed`}
          action={
            <Button size="sm" variant="ghost" onClick={bulk.dismiss}>
              Dismiss
            </Button>
          }
        >
          <ul className="issue-bulk-failures">
            {progress.failures.map((failure) => (
              <li key={failure.issue.id}>
                <strong>{failure.issue.identifier}</strong> {failure.issue.title}: {failure.message}
              </li>
            ))}
          </ul>
          <p>The others were changed. Fix what the reasons say, then try again: only they are still selected.</p>
        </Banner>
      )}
    </div>
  );
}

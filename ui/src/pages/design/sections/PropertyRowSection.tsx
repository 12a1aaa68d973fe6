// PropertyRow for the /_design page: a side panel of properties, each a value button opening its
// picker (status, priority, assignee with avatars), one with a free panel, one disabled.
import { useState } from 'react';
import { AgentAvatar } from '../../../components/display/AgentAvatar';
import { PriorityIcon } from '../../../components/display/PriorityIcon';
import { PropertyRow } from '../../../components/display/PropertyRow';
import { StatusIcon } from '../../../components/display/StatusIcon';
import { issuePriorities, issueStatuses, type IssuePriority, type IssueStatus } from '../../../lib/statuses';

const AGENTS = [
  { value: 'none', label: 'Unassigned' },
  { value: 'dev', label: 'Dev', leading: <AgentAvatar id="dev" name="Dev" status="running" size={20} /> },
  { value: 'gus', label: 'Gus', leading: <AgentAvatar id="gus" name="Gus" status="paused" size={20} /> },
];

export function PropertyRowSection() {
  const [status, setStatus] = useState<IssueStatus>('in_progress');
  const [priority, setPriority] = useState<IssuePriority>('high');
  const [assignee, setAssignee] = useState('dev');
  return (
    <div className="issue-properties design-properties">
      <PropertyRow<IssueStatus>
        label="Issue status"
        id="design-property-status"
        value={status}
        onChange={setStatus}
        options={issueStatuses.list.map((value) => ({
          value,
          label: issueStatuses.label(value),
          leading: <StatusIcon kind="issue" status={value} size={14} />,
        }))}
      />
      <PropertyRow<IssuePriority>
        label="Issue priority"
        id="design-property-priority"
        value={priority}
        onChange={setPriority}
        options={issuePriorities.list.map((value) => ({
          value,
          label: issuePriorities.label(value),
          leading: <PriorityIcon priority={value} size={14} />,
        }))}
      />
      <PropertyRow
        label="Assignee"
        id="design-property-assignee"
        value={assignee}
        onChange={setAssignee}
        options={AGENTS}
      />
      <PropertyRow label="Parent" id="design-property-parent" display={<span className="muted">None</span>}>
        <p className="muted">A free panel: here an issue search.</p>
      </PropertyRow>
      <PropertyRow
        label="Project"
        id="design-property-project"
        value={null}
        onChange={() => {}}
        options={[]}
        disabled
      />
    </div>
  );
}

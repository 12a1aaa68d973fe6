// An activity entry's details in words, for the details drawer: a key: value list where ids become
// links to their records (named where the board knows the name), amounts in cents become money,
// times become local times, changes read "from → to". No raw JSON, no id as text.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { APPROVAL_TYPE_LABELS } from '../../lib/approval-labels';
import { enumLabel, formatMoney, fullTime } from '../../lib/format';
import { issueStatuses } from '../../lib/statuses';
import { RelativeTime } from '../../components/display/RelativeTime';
import { runHref } from '../../components/runs/run-href';
import { entryLink, isUuid, recordLink } from '../../components/activity/activity-links';
import { actorWords, type Entry, type Names, subjectWords } from '../../components/activity/activity-sentence';

/** What kind of record an id field points at (plural `…Ids` fields too). */
const ID_FIELDS: Record<string, string> = {
  agentId: 'agent',
  assigneeAgentId: 'agent',
  requestedByAgentId: 'agent',
  reportsTo: 'agent',
  pausedAgentId: 'agent',
  issueId: 'issue',
  parentId: 'issue',
  blockedByIssueId: 'issue',
  unblockedIssueId: 'issue',
  sourceIssueId: 'issue',
  approvalId: 'approval',
  runId: 'heartbeat_run',
  heartbeatRunId: 'heartbeat_run',
  retryOfRunId: 'heartbeat_run',
  checkoutRunId: 'heartbeat_run',
  projectId: 'project',
  pausedProjectId: 'project',
  goalId: 'goal',
  routineId: 'routine',
  skillId: 'skill',
  secretId: 'secret',
  policyId: 'budget_policy',
  incidentId: 'budget_incident',
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** `assigneeAgentId` → "Assignee agent", `issueIds` → "Issues". */
export function fieldWords(field: string): string {
  const plural = /Ids$/.test(field);
  const bare = field.replace(/Ids?$/, '');
  const words = enumLabel(bare || field);
  return plural ? `${words}s` : words;
}

interface Context {
  companyId: string;
  names: Names;
}

function IdLink({ type, id, context }: { type: string | undefined; id: string; context: Context }) {
  const to = type ? recordLink(context.companyId, type, id) : null;
  const name = type === 'agent' ? context.names.agent(id) : undefined;
  const label = name ?? (type ? `Open ${enumLabel(type === 'heartbeat_run' ? 'run' : type).toLowerCase()}` : '');
  if (!to) return <span className="muted">a record without a page</span>;
  return <Link to={to}>{label}</Link>;
}

function Value({ field, value, context }: { field: string; value: unknown; context: Context }): ReactNode {
  if (value === null || value === undefined || value === '') return <span className="muted">none</span>;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return /cents$/i.test(field) ? formatMoney(value) : value.toLocaleString();
  if (typeof value === 'string') {
    if (isUuid(value)) return <IdLink type={ID_FIELDS[field.replace(/s$/, '')]} id={value} context={context} />;
    if (ISO_TIME.test(value)) return fullTime(value);
    if (field === 'status' && issueStatuses.is(value)) return issueStatuses.label(value);
    if (field === 'type') return APPROVAL_TYPE_LABELS[value] ?? enumLabel(value);
    if (/^[a-z]+(_[a-z]+)+$/.test(value)) return enumLabel(value);
    return value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    return (
      <span className="activity-values">
        {value.map((item, index) => (
          <span key={index}>
            <Value field={field} value={item} context={context} />
          </span>
        ))}
      </span>
    );
  }
  if (typeof value === 'object' && 'from' in value && 'to' in value) {
    const change = value as { from: unknown; to: unknown };
    return (
      <span>
        <Value field={field} value={change.from} context={context} /> →{' '}
        <Value field={field} value={change.to} context={context} />
      </span>
    );
  }
  return <Fields fields={value as Record<string, unknown>} context={context} />;
}

function Fields({ fields, context }: { fields: Record<string, unknown>; context: Context }) {
  return (
    <dl className="activity-detail-list">
      {Object.entries(fields).map(([field, value]) => (
        <div key={field}>
          <dt>{fieldWords(field)}</dt>
          <dd>
            <Value field={field} value={value} context={context} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function EntryDetails({
  companyId,
  entry,
  names,
}: { companyId: string; entry: Entry & { createdAt: string } } & {
  names: Names;
}) {
  const context = { companyId, names };
  const subject = entryLink(companyId, entry);
  return (
    <div className="activity-details-body">
      <dl className="activity-detail-list">
        <div>
          <dt>When</dt>
          <dd>
            <RelativeTime at={entry.createdAt} /> ({fullTime(entry.createdAt)})
          </dd>
        </div>
        <div>
          <dt>Who</dt>
          <dd>
            {entry.actorType === 'agent' && isUuid(entry.actorId) ? (
              <Link to={`/c/${companyId}/agents/${entry.actorId}`}>{actorWords(entry, names)}</Link>
            ) : (
              actorWords(entry, names)
            )}
          </dd>
        </div>
        <div>
          <dt>Action</dt>
          <dd>{enumLabel(entry.action.replace('.', '_'))}</dd>
        </div>
        <div>
          <dt>About</dt>
          <dd>{subject ? <Link to={subject}>{subjectWords(entry, names)}</Link> : subjectWords(entry, names)}</dd>
        </div>
        {entry.runId && (
          <div>
            <dt>In run</dt>
            <dd>
              <Link to={runHref(companyId, entry.runId)}>Open run</Link>
            </dd>
          </div>
        )}
      </dl>
      {entry.details && Object.keys(entry.details).length > 0 && (
        <>
          <h3>Details</h3>
          <Fields fields={entry.details} context={context} />
        </>
      )}
    </div>
  );
}

// An issue in full: its title, who is working on it right now, its properties beside (under the title
// on a narrow screen), and one timeline: the description with what hangs off the issue, then comments,
// runs, status and assignee changes and documents as they happened, with the composer at the bottom.
// `s`, `a` and `p` open the status, assignee and priority pickers. Everything refreshes from the
// company's live events; nothing polls.
import { FilePlus, ListPlus } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { inTextField } from '../../app/GlobalShortcuts';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { LivePill } from '../../components/display/LivePill';
import { RelativeTime } from '../../components/display/RelativeTime';
import { runHref } from '../../components/runs/run-href';
import { LIVE_RUN_STATUSES } from '../../components/runs/run-status';
import { Button } from '../../components/ui/Button';
import { EntityPluginTabs } from '../../components/plugins/PluginSlots';
import { useAgentNames } from '../../queries/agents';
import { issueQuery, type IssueDetail } from '../../queries/issues';
import { AttachFile, Attachments } from './Attachments';
import { Documents } from './Documents';
import { InlineDescription } from './InlineDescription';
import { InlineTitle } from './InlineTitle';
import { PROPERTY_IDS, Properties } from './Properties';
import { type IssueRun, useIssueRuns, Workspace } from './Runs';
import { SubIssues } from './SubIssues';
import { Timeline } from './Timeline';

/** The page's own keys: each opens a property's picker. */
const PICKER_KEYS: Record<string, string> = {
  s: PROPERTY_IDS.status,
  a: PROPERTY_IDS.assignee,
  p: PROPERTY_IDS.priority,
};

function usePickerKeys() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // As the global keys: never while typing, with a modifier, or over a dialog or open picker.
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || inTextField(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const id = PICKER_KEYS[event.key];
      const trigger = id ? document.getElementById(id) : null;
      if (!trigger) return;
      event.preventDefault();
      trigger.click();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function IssuePage() {
  const { companyId = '', issueId = '' } = useParams();
  const issue = useQuery(issueQuery(companyId, issueId));
  const heading = issue.data ? `${issue.data.identifier} ${issue.data.title}` : 'Issue';
  useEffect(() => {
    document.title = `${heading} · Boardroom`;
  }, [heading]);
  usePickerKeys();

  if (issue.isPending)
    return (
      <div className="page">
        <Loading label="Loading the issue" />
      </div>
    );
  if (issue.isError)
    return (
      <div className="page">
        <h1>Issue {issueId}</h1>
        <ErrorNotice error={issue.error} title="The issue could not be loaded" retry={() => void issue.refetch()} />
      </div>
    );
  return <IssueView companyId={companyId} issue={issue.data} />;
}

function IssueView({ companyId, issue }: { companyId: string; issue: IssueDetail }) {
  const id = issue.id;
  const { nameOf } = useAgentNames(companyId);
  const runs = useIssueRuns(companyId, id);
  const [addingSubIssue, setAddingSubIssue] = useState(false);
  const [addingDocument, setAddingDocument] = useState(false);
  const liveRun = runs.runs.find((run) => LIVE_RUN_STATUSES.has(run.status));
  const holder = issue.checkoutRunId ? runs.runs.find((run) => run.runId === issue.checkoutRunId) : undefined;
  const checkoutHolder = issue.checkoutRunId ? (holder ? nameOf(holder.agentId) : 'a run') : null;

  const opening = (
    <>
      <InlineDescription key={`description-${id}`} description={issue.description} companyId={companyId} issueId={id} />
      <div className="issue-add-actions">
        {!addingSubIssue && (
          <Button variant="ghost" size="sm" icon={ListPlus} onClick={() => setAddingSubIssue(true)}>
            Add sub-issue
          </Button>
        )}
        {!addingDocument && (
          <Button variant="ghost" size="sm" icon={FilePlus} onClick={() => setAddingDocument(true)}>
            Add document
          </Button>
        )}
        <AttachFile companyId={companyId} issueId={id} />
      </div>
      <SubIssues companyId={companyId} issue={issue} adding={addingSubIssue} onAddingChange={setAddingSubIssue} />
      <Documents companyId={companyId} issueId={id} adding={addingDocument} onAddingChange={setAddingDocument} />
      <Attachments companyId={companyId} issueId={id} />
      <EntityPluginTabs companyId={companyId} entity="issue" entityId={id} />
      <Workspace issue={issue} />
    </>
  );

  return (
    <div className="page issue-page">
      <header className="issue-header">
        <nav aria-label="Breadcrumb" className="breadcrumb muted">
          <Link to={`/c/${companyId}/issues`}>Issues</Link>
          {[...issue.ancestors].reverse().map((ancestor) => (
            <span key={ancestor.id}>
              {' / '}
              <Link to={`/c/${companyId}/issues/${ancestor.identifier}`}>{ancestor.identifier}</Link>
            </span>
          ))}
          {' / '}
          <span>{issue.identifier}</span>
        </nav>
        <InlineTitle key={`title-${id}`} title={issue.title} companyId={companyId} issueId={id} />
        <p className="muted issue-meta">
          Created <RelativeTime at={issue.createdAt} /> · updated <RelativeTime at={issue.updatedAt} />
        </p>
        {liveRun && <LiveWork companyId={companyId} run={liveRun} name={nameOf(liveRun.agentId)} />}
      </header>
      <Properties companyId={companyId} issue={issue} checkoutHolder={checkoutHolder} />
      <div className="issue-main">
        <Timeline
          companyId={companyId}
          issue={issue}
          runs={runs.runs}
          runsError={runs.error}
          retryRuns={runs.retry}
          opening={opening}
        />
      </div>
    </div>
  );
}

/** "Dev is working on this · 0:42" while a run about the issue is live, whether or not it checked out. */
function LiveWork({ companyId, run, name }: { companyId: string; run: IssueRun; name: string }) {
  const running = run.status === 'running';
  return (
    <p className="issue-live">
      <AgentAvatar id={run.agentId} name={name} status={running ? 'running' : undefined} size={24} />
      <LivePill
        label={running ? `${name} is working on this` : `${name} is about to start on this`}
        since={running ? (run.startedAt ?? run.createdAt) : null}
      />
      <Link to={runHref(companyId, run.runId)}>Open the run</Link>
    </p>
  );
}

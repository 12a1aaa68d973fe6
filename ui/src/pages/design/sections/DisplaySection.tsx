// The display components in every state, for the /_design page: a place to see a tone or an icon
// change everywhere at once, in both schemes.
import { Bot, Inbox } from 'lucide-react';
import { AgentStatusBadge } from '../../../components/agents/AgentStatusBadge';
import { BudgetBar } from '../../../components/budgets/BudgetBar';
import { AgentAvatar } from '../../../components/display/AgentAvatar';
import { EmptyState } from '../../../components/display/EmptyState';
import { ErrorState } from '../../../components/display/ErrorState';
import { LivePill } from '../../../components/display/LivePill';
import { PriorityIcon } from '../../../components/display/PriorityIcon';
import { RelativeTime } from '../../../components/display/RelativeTime';
import { StatusIcon } from '../../../components/display/StatusIcon';
import { StatusPill } from '../../../components/display/StatusPill';
import { TimelineItem } from '../../../components/display/TimelineItem';
import { RUN_STATUSES, runStatusLabel, runStatusTone } from '../../../components/runs/run-status';
import { enumLabel, formatMoney } from '../../../lib/format';
import { agentStatuses, issuePriorities, issueStatuses, type Tone } from '../../../lib/statuses';

const TONES: Tone[] = ['neutral', 'info', 'live', 'success', 'warning', 'danger', 'violet'];
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

export function DisplaySection() {
  return (
    <div className="display-section">
      <div>
        <h3>Tones (StatusPill)</h3>
        <div className="display-row">
          {TONES.map((tone) => (
            <StatusPill key={tone} tone={tone}>
              {enumLabel(tone)}
            </StatusPill>
          ))}
        </div>
      </div>

      <div>
        <h3>Issue statuses</h3>
        <div className="display-row">
          {issueStatuses.list.map((status) => (
            <span key={status} className="display-row">
              <StatusIcon kind="issue" status={status} />
              <StatusPill tone={issueStatuses.tone(status)}>{issueStatuses.label(status)}</StatusPill>
            </span>
          ))}
        </div>
      </div>

      <div>
        <h3>Priorities</h3>
        <div className="display-row">
          {issuePriorities.list.map((priority) => (
            <span key={priority} className="display-row">
              <PriorityIcon priority={priority} /> {issuePriorities.label(priority)}
            </span>
          ))}
        </div>
      </div>

      <div>
        <h3>Agent statuses and avatars</h3>
        <div className="display-row">
          {agentStatuses.list.map((status) => (
            <span key={status} className="display-row">
              <StatusIcon kind="agent" status={status} />
              <AgentStatusBadge status={status} pauseReason={status === 'paused' ? 'budget' : null} />
            </span>
          ))}
        </div>
        <div className="display-row">
          {([20, 24, 32] as const).map((size) =>
            (['running', 'idle', 'paused', 'error'] as const).map((status) => (
              <AgentAvatar key={`${size}-${status}`} id={`${status}-${size}`} name="Dev" status={status} size={size} />
            )),
          )}
          <AgentAvatar name="Release Manager" />
        </div>
      </div>

      <div>
        <h3>Run statuses and live</h3>
        <div className="display-row">
          {RUN_STATUSES.map((status) => (
            <span key={status} className="display-row">
              <StatusIcon kind="run" status={status} />
              <StatusPill tone={runStatusTone(status)}>{runStatusLabel(status)}</StatusPill>
            </span>
          ))}
          <LivePill />
          <LivePill label="Running" since={minutesAgo(0.7)} />
        </div>
      </div>

      <div>
        <h3>Money and time</h3>
        <div className="display-row">
          <span>{formatMoney(1500)}</span>
          <span>{formatMoney(123_456, { compact: true })}</span>
          <RelativeTime at={minutesAgo(3)} />
          <RelativeTime at={minutesAgo(60 * 30)} />
          <span>{enumLabel('local_process')}</span>
          <span>{enumLabel('billed_cents')}</span>
        </div>
        <BudgetBar name="Under" metric="billed_cents" observed={600} amount={1500} warnPercent={80} />
        <BudgetBar name="Near" metric="billed_cents" observed={1300} amount={1500} warnPercent={80} />
        <BudgetBar name="Over" metric="billed_cents" observed={1600} amount={1500} warnPercent={80} />
      </div>

      <div>
        <h3>Timeline</h3>
        <ul className="timeline">
          <TimelineItem avatar={<AgentAvatar name="Dev" status="running" />} actor="Dev" at={minutesAgo(2)}>
            moved it to In progress
          </TimelineItem>
          <TimelineItem
            avatar={<AgentAvatar name="Reviewer" />}
            actor="Reviewer"
            at={minutesAgo(40)}
            body="Looks good; one test to add."
          >
            commented
          </TimelineItem>
          <TimelineItem icon={Bot} actor="Boardroom" at={minutesAgo(90)}>
            created it from a routine
          </TimelineItem>
        </ul>
      </div>

      <div>
        <h3>Empty and error</h3>
        <EmptyState
          icon={Inbox}
          title="No issues yet"
          action={
            <button type="button" className="primary">
              Create an issue
            </button>
          }
        >
          Create the first issue; an agent assigned to it picks it up on its next heartbeat.
        </EmptyState>
        <ErrorState
          error={new Error('The server did not answer.')}
          title="The issues could not be loaded"
          retry={() => {}}
        />
      </div>
    </div>
  );
}

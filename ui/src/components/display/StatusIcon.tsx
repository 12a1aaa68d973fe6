// A status as a small icon in its tone (issues the way Linear draws them: dashed, empty, half, full),
// named by its words for screen readers and on hover. Agents and runs have icons where one helps.
import {
  Ban,
  Circle,
  CircleCheck,
  CircleDashed,
  CircleDot,
  CirclePause,
  CirclePlay,
  CircleX,
  Clock,
  Contrast,
  TimerOff,
  type LucideIcon,
} from 'lucide-react';
import { runStatusLabel, runStatusTone } from '../runs/run-status';
import { agentStatuses, issueStatuses, type AgentStatus, type IssueStatus, type Tone } from '../../lib/statuses';
import { Icon } from '../ui/Icon';

const ISSUE_ICONS: Record<IssueStatus, LucideIcon> = {
  backlog: CircleDashed,
  todo: Circle,
  in_progress: Contrast,
  blocked: Ban,
  in_review: CircleDot,
  done: CircleCheck,
  cancelled: CircleX,
};

const AGENT_ICONS: Record<AgentStatus, LucideIcon> = {
  active: CircleCheck,
  idle: Circle,
  running: CirclePlay,
  paused: CirclePause,
  error: CircleX,
  pending_approval: Clock,
  terminated: Ban,
};

const RUN_ICONS: Record<string, LucideIcon> = {
  queued: Clock,
  running: CirclePlay,
  succeeded: CircleCheck,
  failed: CircleX,
  timed_out: TimerOff,
  cancelled: Ban,
};

type Subject =
  | { kind: 'issue'; status: IssueStatus }
  | { kind: 'agent'; status: AgentStatus }
  | { kind: 'run'; status: string };

function look(subject: Subject): { icon: LucideIcon; label: string; tone: Tone } {
  switch (subject.kind) {
    case 'issue':
      return {
        icon: ISSUE_ICONS[subject.status] ?? Circle,
        label: issueStatuses.label(subject.status),
        tone: issueStatuses.tone(subject.status),
      };
    case 'agent':
      return {
        icon: AGENT_ICONS[subject.status] ?? Circle,
        label: agentStatuses.label(subject.status),
        tone: agentStatuses.tone(subject.status),
      };
    case 'run':
      return {
        icon: RUN_ICONS[subject.status] ?? Circle,
        label: runStatusLabel(subject.status),
        tone: runStatusTone(subject.status),
      };
  }
}

/** `kind` and `status` pick the icon, words and tone; `size` 14 or 16 (default). */
export function StatusIcon({ size = 16, ...subject }: Subject & { size?: 14 | 16 }) {
  const { icon, label, tone } = look(subject as Subject);
  return (
    <span className={`status-icon tone-${tone}`} title={label}>
      <Icon icon={icon} size={size} label={label} />
    </span>
  );
}

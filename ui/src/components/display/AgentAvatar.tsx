// An agent as a face: initials in a circle whose colour follows from its id (the same agent looks the
// same on every page), and a dot for its state: pulsing while it runs, amber paused, red in error.
import { agentStatuses, type AgentStatus } from '../../lib/statuses';

/** Avatar colours: the tones' pairs, so each meets contrast in both schemes. */
const PALETTE = ['info', 'violet', 'success', 'warning', 'danger', 'live', 'neutral'] as const;

function hueOf(key: string): (typeof PALETTE)[number] {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length] ?? 'neutral';
}

/** "Dev" → "DE", "Release Manager" → "RM". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  if (words.length === 1) return (words[0] ?? '').slice(0, 2).toUpperCase();
  return `${words[0]?.[0] ?? ''}${words[words.length - 1]?.[0] ?? ''}`.toUpperCase();
}

const DOT: Partial<Record<AgentStatus, string>> = {
  running: 'live',
  paused: 'warning',
  error: 'danger',
  terminated: 'danger',
  pending_approval: 'violet',
};

export function AgentAvatar({
  id,
  name,
  status,
  size = 24,
}: {
  /** Picks the colour; the name when there is no id. */
  id?: string;
  name: string;
  /** Without it, no dot (e.g. a past actor). */
  status?: AgentStatus;
  size?: 20 | 24 | 32;
}) {
  const label = status ? `${name}, ${agentStatuses.label(status).toLowerCase()}` : name;
  const dot = status ? (DOT[status] ?? 'neutral') : null;
  return (
    <span className={`avatar avatar-${size} avatar-${hueOf(id ?? name)}`} role="img" aria-label={label} title={label}>
      {/* CSS content, not text: a link or tree item holding the avatar reads as its name, never "DE". */}
      <span className="avatar-initials" data-initials={initials(name)} aria-hidden="true" />
      {dot && <span className={`avatar-dot avatar-dot-${dot}${dot === 'live' ? ' live-motion' : ''}`} />}
    </span>
  );
}

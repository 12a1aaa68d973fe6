// Plugins in words (issue 27): each capability a manifest asks for as the sentence an operator or a
// company's board reads before consenting, grouped by what it lets the plugin do; and the statuses of
// plugins, consents, workers, sandboxes and log lines with their tones. The keys are the server's
// (src/modules/plugins/capabilities.ts, the health and logs responses); a key this board does not know
// yet (a newer server) reads as itself, never as nothing.
import type { Tone } from './statuses';

export type CapabilityGroup = 'read' | 'write' | 'runtime' | 'board';

const CAPABILITIES: Record<string, { sentence: string; group: CapabilityGroup }> = {
  'issues.read': { sentence: 'Read issues', group: 'read' },
  'comments.read': { sentence: 'Read comments', group: 'read' },
  'documents.read': { sentence: 'Read issue documents', group: 'read' },
  'projects.read': { sentence: 'Read projects', group: 'read' },
  'agents.read': { sentence: 'Read agents', group: 'read' },
  'goals.read': { sentence: 'Read goals', group: 'read' },
  'routines.read': { sentence: 'Read routines', group: 'read' },
  'activity.read': { sentence: 'Read the activity log', group: 'read' },
  'costs.read': { sentence: 'Read costs and budgets', group: 'read' },
  'issues.write': { sentence: 'Create and edit issues (never their status or assignee)', group: 'write' },
  'issues.status': { sentence: 'Change the status of issues', group: 'write' },
  'comments.write': { sentence: 'Write comments (their mentions wake nobody)', group: 'write' },
  'documents.write': { sentence: 'Write issue documents', group: 'write' },
  'agents.wake': { sentence: 'Wake agents, within the budget rules', group: 'write' },
  'events.subscribe': { sentence: "Receive the company's activity as it happens", group: 'runtime' },
  jobs: { sentence: 'Run scheduled jobs', group: 'runtime' },
  webhooks: { sentence: 'Receive webhooks from other services', group: 'runtime' },
  tools: { sentence: 'Offer tools to agents', group: 'runtime' },
  state: { sentence: 'Keep data of its own', group: 'runtime' },
  'http.outbound': { sentence: 'Connect to the internet hosts it lists', group: 'runtime' },
  'secrets.use': { sentence: 'Use the secrets its settings name, without ever seeing their values', group: 'runtime' },
  'ui.blocks': { sentence: 'Show panels on the board', group: 'board' },
  'ui.frame': { sentence: 'Show its own page in a sealed-off frame', group: 'board' },
};

export const CAPABILITY_GROUPS: { group: CapabilityGroup; heading: string }[] = [
  { group: 'read', heading: 'Read' },
  { group: 'write', heading: 'Change' },
  { group: 'runtime', heading: 'Run on its own' },
  { group: 'board', heading: 'Show on the board' },
];

/** "Read issues"; `http.outbound` names the hosts ("Connect to api.example.com"). */
export function capabilitySentence(key: string, net: string[] = []): string {
  if (key === 'http.outbound' && net.length > 0) return `Connect to ${net.join(', ')}`;
  return CAPABILITIES[key]?.sentence ?? key;
}

export const capabilityGroup = (key: string): CapabilityGroup => CAPABILITIES[key]?.group ?? 'runtime';

function words<S extends string>(table: Record<S, { label: string; tone: Tone }>) {
  return {
    label: (key: string): string => table[key as S]?.label ?? key,
    tone: (key: string): Tone => table[key as S]?.tone ?? 'neutral',
  };
}

/** The plugin on the instance. */
export const pluginStatuses = words({
  ready: { label: 'Available', tone: 'success' },
  disabled: { label: 'Turned off on the instance', tone: 'neutral' },
  error: { label: 'Failing', tone: 'danger' },
});

/** The plugin for one company. */
export const consentStatuses = words({
  enabled: { label: 'On', tone: 'success' },
  disabled: { label: 'Off', tone: 'neutral' },
  upgrade_pending: { label: 'Waiting for consent', tone: 'warning' },
});

/** A worker process on the replica that answered. */
export const workerStatuses = words({
  running: { label: 'Running', tone: 'live' },
  starting: { label: 'Starting', tone: 'info' },
  backoff: { label: 'Restarting after a crash', tone: 'warning' },
  stopped: { label: 'Not running (starts when needed)', tone: 'neutral' },
  error: { label: 'Stopped after repeated crashes', tone: 'danger' },
});

/** How a worker is confined on the replica that answered. */
export const sandboxWords = words({
  bwrap: { label: 'Sealed sandbox: no network, no other files', tone: 'success' },
  'unprivileged-user': { label: 'Separate unprivileged user (no sealed sandbox on this server)', tone: 'warning' },
  none: { label: 'Plain process: no sandbox available on this server', tone: 'danger' },
});

export const logLevels = words({
  debug: { label: 'Debug', tone: 'neutral' },
  info: { label: 'Info', tone: 'info' },
  warn: { label: 'Warning', tone: 'warning' },
  error: { label: 'Error', tone: 'danger' },
});

export const logSources = words({
  stderr: { label: 'Worker output', tone: 'neutral' },
  log: { label: 'Worker log', tone: 'neutral' },
  host: { label: 'Boardroom', tone: 'neutral' },
});

/** A job run (the contract's statuses). */
export const jobRunStatuses = words({
  queued: { label: 'Queued', tone: 'neutral' },
  running: { label: 'Running', tone: 'live' },
  succeeded: { label: 'Succeeded', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
});

export const webhookSigning = words({
  none: { label: 'Unsigned: anyone with the address can send', tone: 'warning' },
  bearer: { label: 'A bearer token', tone: 'neutral' },
  hmac_sha256: { label: 'An HMAC-SHA256 signature', tone: 'neutral' },
  codehost_hmac: { label: "A code host's HMAC signature", tone: 'neutral' },
});

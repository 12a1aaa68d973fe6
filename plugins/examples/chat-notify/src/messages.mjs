// The text of each notification, and the request each chat service expects for it. Pure functions:
// the worker sends what these return through host.http.fetch.

const FORMATS = ['slack', 'discord', 'ntfy'];

const short = (id) => (typeof id === 'string' ? id.slice(0, 8) : 'unknown');
const money = (cents) => (typeof cents === 'number' ? `$${(cents / 100).toFixed(2)}` : 'unknown');

const APPROVAL_VERBS = {
  'approval.created': 'waits for the board',
  'approval.resubmitted': 'was resubmitted and waits for the board',
  'approval.approved': 'was approved',
  'approval.rejected': 'was rejected',
  'approval.revision_requested': 'was sent back for revision',
  'approval.comment_added': 'has a new comment',
};

/**
 * `{ title, text, urgent }` for an activity entry, or null for one not worth a message (an approval
 * entry of a kind not listed above).
 */
export function messageFor(entry) {
  const d = entry.details ?? {};
  if (entry.action.startsWith('approval.')) {
    const verb = APPROVAL_VERBS[entry.action];
    if (!verb) return null;
    const what = typeof d.type === 'string' ? d.type.replaceAll('_', ' ') : 'an approval';
    return {
      title: `Approval ${verb}`,
      text: `Approval ${short(entry.entityId)} (${what}) ${verb}.`,
      urgent: entry.action === 'approval.created' || entry.action === 'approval.resubmitted',
    };
  }
  if (entry.action === 'budget.warn_threshold_reached' || entry.action === 'budget.hard_limit_reached') {
    const hard = entry.action === 'budget.hard_limit_reached';
    const scope = d.scopeType === 'company' ? 'The company' : `The ${d.scopeType ?? 'budget'} ${short(d.scopeId)}`;
    const observed = d.metric === 'billed_cents' ? money(d.observed) : String(d.observed ?? '?');
    const amount = d.metric === 'billed_cents' ? money(d.amount) : String(d.amount ?? '?');
    return {
      title: hard ? 'Budget limit reached' : 'Budget warning',
      text: `${scope} has used ${observed} of its ${amount} budget${hard ? (d.hardStop ? ': work is paused until the board decides.' : '.') : '.'}`,
      urgent: hard,
    };
  }
  if (entry.action === 'heartbeat_run.failed' || entry.action === 'heartbeat_run.timed_out') {
    const how = entry.action === 'heartbeat_run.failed' ? 'failed' : 'timed out';
    const why = typeof d.error === 'string' && d.error ? `: ${d.error.slice(0, 300)}` : '.';
    return {
      title: `A run ${how}`,
      text: `Run ${short(entry.entityId)} of agent ${short(d.agentId ?? entry.agentId)} ${how}${why}`,
      urgent: false,
    };
  }
  return null;
}

/** The http.fetch params (without the URL) that post `message` in `format`. */
export function requestFor(format, message) {
  if (format === 'slack')
    return {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `*${message.title}*\n${message.text}` }),
    };
  if (format === 'discord')
    return {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: `**${message.title}**\n${message.text}`, allowed_mentions: { parse: [] } }),
    };
  if (format === 'ntfy')
    return {
      method: 'POST',
      headers: { 'content-type': 'text/plain', title: message.title, priority: message.urgent ? 'high' : 'default' },
      body: message.text,
    };
  throw new Error(`format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`);
}

export function configErrors(config) {
  const errors = [];
  if (!FORMATS.includes(config?.format)) errors.push(`format: one of ${FORMATS.join(', ')}`);
  if (config?.webhookUrl === undefined || config.webhookUrl === null || config.webhookUrl === '')
    errors.push('webhookUrl: a company secret holding the incoming-webhook URL');
  return errors;
}

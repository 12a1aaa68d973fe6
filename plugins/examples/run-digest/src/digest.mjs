// The digest's content: runs that ended in the window (heartbeat_run.<status> activity entries) and
// the spend reported in it (cost.reported entries), by agent, as markdown. Pure functions.

const ENDED = ['succeeded', 'failed', 'timed_out', 'cancelled'];
const WORDS = { succeeded: 'Succeeded', failed: 'Failed', timed_out: 'Timed out', cancelled: 'Cancelled' };
const money = (cents) => new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(cents / 100);

/** Whether an entry belongs to the window [from, to). */
export const inWindow = (entry, from, to) => {
  const at = Date.parse(entry.createdAt);
  return at >= from.getTime() && at < to.getTime();
};

/** Runs by agent and status, and spend by agent, from the window's activity entries. */
export function tally(entries) {
  const agents = new Map();
  const of = (id) => {
    const key = id ?? 'unknown';
    if (!agents.has(key)) agents.set(key, { runs: Object.fromEntries(ENDED.map((s) => [s, 0])), costCents: 0, errors: [] });
    return agents.get(key);
  };
  for (const entry of entries) {
    const agentId = entry.details?.agentId ?? entry.agentId;
    if (entry.action.startsWith('heartbeat_run.')) {
      const status = entry.action.slice('heartbeat_run.'.length);
      if (!ENDED.includes(status)) continue;
      const a = of(agentId);
      a.runs[status] += 1;
      if (status !== 'succeeded' && typeof entry.details?.error === 'string' && a.errors.length < 3)
        a.errors.push(entry.details.error.slice(0, 200));
    } else if (entry.action === 'cost.reported' && typeof entry.details?.costCents === 'number') {
      of(agentId).costCents += entry.details.costCents;
    }
  }
  return agents;
}

/** The digest document's markdown. `names` by agent id; `monthSpendCents` from the costs summary, when known. */
export function digestMarkdown({ from, to, agents, names = {}, monthSpendCents = null }) {
  const day = to.toISOString().slice(0, 10);
  const rows = [...agents.entries()].sort(([, a], [, b]) => b.costCents - a.costCents);
  const total = (status) => rows.reduce((n, [, a]) => n + a.runs[status], 0);
  const spend = rows.reduce((n, [, a]) => n + a.costCents, 0);
  const ran = ENDED.reduce((n, s) => n + total(s), 0);
  const lines = [
    `# Run digest, ${day}`,
    '',
    `From ${from.toISOString().replace('T', ' ').slice(0, 16)} to ${to.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    '',
    ran === 0
      ? '- No run ended in this window.'
      : `- ${ran} runs ended: ${ENDED.filter((s) => total(s) > 0)
          .map((s) => `${total(s)} ${WORDS[s].toLowerCase()}`)
          .join(', ')}.`,
    `- Spend reported: ${money(spend)}.`,
    ...(monthSpendCents === null ? [] : [`- Spend this month so far: ${money(monthSpendCents)}.`]),
  ];
  if (rows.length > 0) {
    lines.push('', '| Agent | Succeeded | Failed | Timed out | Cancelled | Spend |', '|---|---:|---:|---:|---:|---:|');
    for (const [id, a] of rows)
      lines.push(
        `| ${names[id] ?? (id === 'unknown' ? 'Unknown agent' : id.slice(0, 8))} | ${ENDED.map((s) => a.runs[s]).join(' | ')} | ${money(a.costCents)} |`,
      );
    const failures = rows.filter(([, a]) => a.errors.length > 0);
    if (failures.length > 0) {
      lines.push('', '## What went wrong');
      for (const [id, a] of failures)
        for (const error of a.errors) lines.push(`- ${names[id] ?? id.slice(0, 8)}: ${error.replaceAll('\n', ' ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

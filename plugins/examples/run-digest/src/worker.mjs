// run-digest: the daily `daily-digest` job writes a document summarising the last day's runs and
// spend on the configured issue, or on an issue it opens once and remembers in its state. The
// document key is the day (run-digest-2026-11-28), so a retried run of the same fire time rewrites
// the same document instead of adding one.
import { definePlugin, runWorker } from 'boardroom/plugin-sdk';
import { digestMarkdown, inWindow, tally } from './digest.mjs';

const DAY_MS = 86_400_000;
const PAGE = 200;
const MAX_PAGES = 50;
const ISSUE_STATE_KEY = 'digest-issue';

/** Activity entries of [from, to), newest first, paged back until the window's start. */
async function windowEntries(host, from, to, signal) {
  const entries = [];
  let before;
  for (let page = 0; page < MAX_PAGES && !signal.aborted; page++) {
    const batch = await host.activity.list({ limit: PAGE, ...(before ? { before } : {}) });
    entries.push(...batch.filter((e) => inWindow(e, from, to)));
    const oldest = batch.at(-1);
    if (batch.length < PAGE || !oldest || Date.parse(oldest.createdAt) < from.getTime()) break;
    before = oldest.createdAt;
  }
  return entries;
}

/** The configured issue, else the one this plugin opened before, else a new one (remembered in state). */
async function digestIssue(host, config) {
  if (typeof config?.issueId === 'string' && config.issueId) return config.issueId;
  const kept = (await host.state.get({ key: ISSUE_STATE_KEY })).value;
  if (typeof kept === 'string') return kept;
  const issue = await host.issues.create({
    title: 'Run digests',
    description: 'The run-digest plugin writes a document here every day: the runs that ended and the spend, by agent.',
    priority: 'low',
  });
  await host.state.set({ key: ISSUE_STATE_KEY, value: issue.id });
  return issue.id;
}

runWorker(
  definePlugin({
    jobs: {
      async 'daily-digest'(input, { host, config, signal }) {
        const to = new Date(input.fireAt);
        const from = new Date(to.getTime() - DAY_MS);
        const agents = tally(await windowEntries(host, from, to, signal));
        const names = Object.fromEntries((await host.agents.list({})).map((a) => [a.id, a.name]));
        const summary = await host.costs.summary({});
        const body = digestMarkdown({
          from,
          to,
          agents,
          names,
          monthSpendCents: typeof summary?.spendCents === 'number' ? summary.spendCents : null,
        });
        const day = to.toISOString().slice(0, 10);
        await host.documents.put({
          issueId: await digestIssue(host, config),
          key: `run-digest-${day}`,
          title: `Run digest, ${day}`,
          body,
        });
      },
    },
    validateConfig: (config) =>
      config.issueId === undefined || (typeof config.issueId === 'string' && config.issueId.trim() !== '')
        ? { ok: true, errors: [] }
        : { ok: false, errors: ['issueId: an issue id or identifier, or leave it out'] },
  }),
);

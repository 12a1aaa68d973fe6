// A plugin's blocks (components/plugins/Blocks.tsx) with one of every block type, as a worker would
// answer them, and the board's words for a failed plugin call. The plugin and company are made up:
// pressing a button or submitting the form reaches the real API, which refuses them, and the block
// shows that answer the way it shows any failure.
import { ApiError } from '../../../api/client';
import { type Block, Blocks, PluginCallError } from '../../../components/plugins/Blocks';

const PLUGIN_ID = '00000000-0000-4000-8000-00000000b10c';
const COMPANY_ID = '00000000-0000-4000-8000-00000000c0de';

const BLOCKS: Block[] = [
  {
    type: 'metric',
    label: 'Spent this month',
    value: 123_456,
    unit: 'cents',
    caption: 'of $2,000.00',
    tone: 'warning',
  },
  { type: 'metric', label: 'Open issues', value: 42, unit: 'count' },
  { type: 'metric', label: 'Budget used', value: 61.7, unit: 'percent', tone: 'success' },
  { type: 'metric', label: 'Median run', value: 754_000, unit: 'duration_ms', caption: 'over 7 days' },
  {
    type: 'table',
    title: 'Spend by agent',
    columns: [
      { key: 'agent', label: 'Agent' },
      { key: 'runs', label: 'Runs', unit: 'count' },
      { key: 'spend', label: 'Spend', unit: 'cents' },
      { key: 'paused', label: 'Paused' },
    ],
    rows: [
      { agent: 'Dev', runs: 31, spend: 84_210, paused: false },
      { agent: 'Reviewer', runs: 12, spend: 9_950, paused: true },
      { agent: 'Scout', runs: 0, spend: null, paused: false },
    ],
  },
  {
    type: 'list',
    title: 'Needs attention',
    items: [
      {
        title: 'BRD-12 is blocked for 3 days',
        subtitle: 'Waiting on a review',
        href: '/issues/BRD-12',
        tone: 'warning',
      },
      { title: 'Nightly digest failed', subtitle: 'The receiver answered 500', tone: 'danger' },
      { title: 'All routines ran on time', tone: 'success' },
    ],
  },
  {
    type: 'keyValue',
    title: 'This week',
    items: [
      { label: 'Runs', value: 118, unit: 'count' },
      { label: 'Spend', value: 40_500, unit: 'cents' },
      { label: 'Longest run', value: 3_725_000, unit: 'duration_ms' },
      { label: 'Webhooks received', value: 'none' },
    ],
  },
  {
    type: 'markdown',
    text: '### Summary\n\nRuns are **up 12%** on last week. See [the issues](/issues) or the [docs](https://example.com/docs).\n\n- [x] digest sent\n- [ ] budget reviewed\n\n<script>alert("never runs")</script>',
  },
  {
    type: 'chart',
    kind: 'bar',
    title: 'Runs per agent',
    unit: 'count',
    series: [
      {
        label: 'This week',
        points: [
          { x: 'Dev', y: 31 },
          { x: 'Reviewer', y: 12 },
          { x: 'Scout', y: 4 },
        ],
      },
    ],
  },
  {
    type: 'chart',
    kind: 'line',
    title: 'Daily spend',
    unit: 'cents',
    series: [
      {
        label: 'Spend',
        points: [
          { x: 'Mon', y: 1200 },
          { x: 'Tue', y: 3400 },
          { x: 'Wed', y: 2100 },
          { x: 'Thu', y: 5200 },
          { x: 'Fri', y: 4100 },
        ],
      },
      {
        label: 'Budget per day',
        points: [
          { x: 'Mon', y: 4000 },
          { x: 'Tue', y: 4000 },
          { x: 'Wed', y: 4000 },
          { x: 'Thu', y: 4000 },
          { x: 'Fri', y: 4000 },
        ],
      },
    ],
  },
  { type: 'form', title: 'Post a greeting', action: 'post-greeting', submitLabel: 'Post', values: { text: 'Hello' } },
  {
    type: 'buttons',
    buttons: [
      { label: 'Refresh now', action: 'refresh' },
      { label: 'Clear the cache', action: 'clear-cache', tone: 'danger' },
    ],
  },
];

const ACTIONS = {
  'post-greeting': {
    confirm: true,
    paramsSchema: {
      type: 'object',
      properties: {
        issue: { type: 'string', description: 'The issue to comment on, e.g. BRD-12' },
        text: { type: 'string', maxLength: 200 },
      },
      required: ['issue'],
    },
  },
  refresh: { confirm: false },
  'clear-cache': { confirm: true },
};

export function PluginBlocksSection() {
  return (
    <div className="design-stack">
      <Blocks blocks={BLOCKS} context={{ companyId: COMPANY_ID, pluginId: PLUGIN_ID, actions: ACTIONS }} />
      <PluginCallError
        title="Budget radar could not be shown"
        error={
          new ApiError(502, 'the worker failed: TypeError: Cannot read properties of undefined', {
            code: 'WORKER_ERROR',
          })
        }
      />
    </div>
  );
}

// UI blocks (issue 27 section 5): what a plugin's `blocks` slot shows. The worker returns typed JSON
// and the board renders it with its own components, so no plugin script runs in the board. The host
// checks every answer against this schema before it reaches a browser: a worker that answers
// anything else is a WORKER_ERROR naming the field, never raw HTML. Text is plain text everywhere but
// `markdown`, which the board renders with its own sanitising renderer; a link is a path inside the
// board (`/issues/…`), never a URL elsewhere.
import { z } from 'zod';

const text = (max: number) => z.string().max(max);
const boardPath = z
  .string()
  .max(500)
  .regex(/^\/(?!\/)[^\s\\]*$/, 'a path inside the board, starting with one "/"')
  .describe('a path inside the board, e.g. `/issues/BRD-12`');
/** What a number means, so the board formats it (money from cents, durations, percentages). */
const unit = z.enum(['count', 'cents', 'percent', 'duration_ms']);
const tone = z.enum(['neutral', 'info', 'success', 'warning', 'danger']);
const cell = z.union([text(500), z.number(), z.boolean(), z.null()]);
/** An action the plugin declared (`actions[].key`): pressing it calls POST /api/plugins/{pluginId}/actions/{key}. */
const actionKey = text(100).regex(/^[a-z0-9][a-z0-9._-]*$/);

export const metricBlock = z.strictObject({
  type: z.literal('metric'),
  label: text(100),
  value: z.union([z.number(), text(100)]),
  unit: unit.optional(),
  /** A short line under the figure ("runs out on 12 December"). */
  caption: text(200).optional(),
  tone: tone.optional(),
});

export const tableBlock = z.strictObject({
  type: z.literal('table'),
  title: text(100).optional(),
  columns: z
    .array(z.strictObject({ key: text(100), label: text(100), unit: unit.optional() }))
    .min(1)
    .max(12),
  rows: z.array(z.record(z.string().max(100), cell)).max(200),
});

export const listBlock = z.strictObject({
  type: z.literal('list'),
  title: text(100).optional(),
  items: z
    .array(
      z.strictObject({
        title: text(300),
        subtitle: text(300).optional(),
        href: boardPath.optional(),
        tone: tone.optional(),
      }),
    )
    .max(200),
});

export const keyValueBlock = z.strictObject({
  type: z.literal('keyValue'),
  title: text(100).optional(),
  items: z.array(z.strictObject({ label: text(100), value: cell, unit: unit.optional() })).max(50),
});

export const markdownBlock = z.strictObject({ type: z.literal('markdown'), text: text(20_000) });

export const chartBlock = z.strictObject({
  type: z.literal('chart'),
  kind: z.enum(['bar', 'line']),
  title: text(100).optional(),
  unit: unit.optional(),
  series: z
    .array(
      z.strictObject({
        label: text(100),
        points: z.array(z.strictObject({ x: text(50), y: z.number() })).max(366),
      }),
    )
    .min(1)
    .max(8),
});

/** A form built from a JSON Schema (the action's `paramsSchema`); submitting it runs the action. */
export const formBlock = z.strictObject({
  type: z.literal('form'),
  title: text(100).optional(),
  action: actionKey,
  submitLabel: text(50).optional(),
  /** Initial values by field. */
  values: z.record(z.string().max(100), cell).optional(),
});

export const buttonsBlock = z.strictObject({
  type: z.literal('buttons'),
  buttons: z
    .array(
      z.strictObject({
        label: text(50),
        action: actionKey,
        params: z.record(z.string().max(100), cell).optional(),
        tone: z.enum(['default', 'danger']).optional(),
      }),
    )
    .min(1)
    .max(6),
});

export const block = z.discriminatedUnion('type', [
  metricBlock,
  tableBlock,
  listBlock,
  keyValueBlock,
  markdownBlock,
  chartBlock,
  formBlock,
  buttonsBlock,
]);
export type Block = z.infer<typeof block>;

/** What a blocks slot's data key answers. */
export const blocksPayload = z.strictObject({ blocks: z.array(block).max(50) });
export type BlocksPayload = z.infer<typeof blocksPayload>;

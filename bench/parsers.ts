// Issue 10 benchmark: the overhead of the four CLI stream parsers (claude, codex, gemini, opencode)
// per MB of output (MB/s through the shared line parser plus each adapter's event handling), in
// this process: no server, no child process, no database, so the figure is the parser's alone.
// Streams are in the real formats, fed in 64 KiB chunks as a pipe delivers them; callbacks only count.
import { createClaudeStream, claudeConfigSchema } from '../src/adapters/claude.ts';
import { createCodexStream, codexConfigSchema } from '../src/adapters/codex.ts';
import { createGeminiStream, geminiConfigSchema } from '../src/adapters/gemini.ts';
import { createOpencodeStream, opencodeConfigSchema } from '../src/adapters/opencode.ts';
import { CLI_MAX_LINE_CHARS } from '../src/adapters/local-cli.ts';
import { createLineParser } from '../src/adapters/supervise.ts';
import { selected, type Bench } from './lib/measure.ts';

const STREAM_MB = 64;
const CHUNK = 64 * 1024;
const ROUNDS = 5;

// Text of mixed sizes, a tool call and its result now and then: what a coding session prints.
function claudeStream(): string {
  return streamOf(
    { type: 'system', subtype: 'init', session_id: 's-1', tools: [], model: 'claude-sonnet-4-5' },
    (i) =>
      i % 10 === 0
        ? {
            type: 'user',
            message: {
              role: 'user',
              content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: 'x'.repeat(4000) }],
            },
            session_id: 's-1',
          }
        : {
            type: 'assistant',
            message: {
              id: `msg_${i >> 2}`,
              model: 'claude-sonnet-4-5',
              content: [{ type: 'text', text: 'lorem ipsum dolor sit amet '.repeat(1 + (i % 40)) }],
              usage: {
                input_tokens: 10,
                cache_read_input_tokens: 100,
                cache_creation_input_tokens: 0,
                output_tokens: i % 50,
              },
            },
            session_id: 's-1',
          },
    {
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'done',
      session_id: 's-1',
      total_cost_usd: 1.5,
      num_turns: 10,
    },
  );
}

function codexStream(): string {
  return streamOf(
    { type: 'thread.started', thread_id: 't-1' },
    (i) =>
      i % 5 === 4
        ? { type: 'turn.completed', usage: { input_tokens: 2000, cached_input_tokens: 1500, output_tokens: 80 } }
        : {
            type: 'item.completed',
            item: {
              id: `item_${i}`,
              type: i % 2 ? 'agent_message' : 'command_execution',
              text: 'lorem ipsum '.repeat(1 + (i % 60)),
              aggregated_output: 'x'.repeat(i % 3000),
            },
          },
    { type: 'turn.completed', usage: { input_tokens: 2000, cached_input_tokens: 1500, output_tokens: 80 } },
  );
}

/** Builds a stream of about STREAM_MB from `event(i)` lines between a first and a last line. */
function streamOf(first: object, event: (i: number) => object, last: object): string {
  const lines = [JSON.stringify(first)];
  let size = 0;
  for (let i = 0; size < STREAM_MB * 1024 * 1024; i++) {
    const line = JSON.stringify(event(i));
    lines.push(line);
    size += line.length + 1;
  }
  lines.push(JSON.stringify(last));
  return `${lines.join('\n')}\n`;
}

function geminiStream(): string {
  const text = (i: number) => 'lorem ipsum '.repeat(1 + (i % 60));
  return streamOf(
    { type: 'init', timestamp: '2026-11-23T10:00:00Z', session_id: 's-1', model: 'gemini-2.5-pro' },
    (i) =>
      i % 10 === 9
        ? {
            type: 'tool_result',
            timestamp: '2026-11-23T10:00:01Z',
            tool_id: `t-${i}`,
            status: 'success',
            output: 'x'.repeat(i % 3000),
          }
        : i % 10 === 8
          ? {
              type: 'tool_use',
              timestamp: '2026-11-23T10:00:01Z',
              tool_name: 'run_shell_command',
              tool_id: `t-${i + 1}`,
              parameters: { command: 'ls' },
            }
          : { type: 'message', timestamp: '2026-11-23T10:00:01Z', role: 'assistant', content: text(i), delta: true },
    {
      type: 'result',
      timestamp: '2026-11-23T10:00:09Z',
      status: 'success',
      stats: {
        total_tokens: 2080,
        input_tokens: 2000,
        output_tokens: 80,
        cached: 1500,
        input: 500,
        duration_ms: 9000,
        tool_calls: 5,
      },
    },
  );
}

function opencodeStream(): string {
  const part = (type: string, extra: object) => ({
    id: 'prt_1',
    sessionID: 'ses_1',
    messageID: 'msg_1',
    type,
    ...extra,
  });
  return streamOf(
    { type: 'step_start', timestamp: 1, sessionID: 'ses_1', part: part('step-start', {}) },
    (i) =>
      i % 5 === 4
        ? {
            type: 'step_finish',
            timestamp: 2,
            sessionID: 'ses_1',
            part: part('step-finish', {
              reason: 'tool-calls',
              cost: 0.0123,
              tokens: { input: 1000, output: 30, reasoning: 10, cache: { read: 500, write: 100 } },
            }),
          }
        : i % 5 === 3
          ? {
              type: 'tool_use',
              timestamp: 2,
              sessionID: 'ses_1',
              part: part('tool', {
                callID: `c-${i}`,
                tool: 'bash',
                state: { status: 'completed', input: { command: 'ls' }, output: 'x'.repeat(i % 3000) },
              }),
            }
          : {
              type: 'text',
              timestamp: 2,
              sessionID: 'ses_1',
              part: part('text', { text: 'lorem ipsum '.repeat(1 + (i % 60)) }),
            },
    {
      type: 'step_finish',
      timestamp: 3,
      sessionID: 'ses_1',
      part: part('step-finish', {
        reason: 'stop',
        cost: 0.015,
        tokens: { input: 200, output: 40, reasoning: 0, cache: { read: 1500, write: 0 } },
      }),
    },
  );
}

function mbPerSecond(stream: string, make: () => { onObject(obj: Record<string, unknown>): void }): number {
  let best = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const handler = make();
    const parser = createLineParser(handler.onObject, CLI_MAX_LINE_CHARS);
    const t0 = process.hrtime.bigint();
    for (let at = 0; at < stream.length; at += CHUNK) parser.push(stream.slice(at, at + CHUNK));
    parser.end();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    best = Math.max(best, stream.length / (1024 * 1024) / seconds);
  }
  return best;
}

export async function benchParsers(bench: Bench): Promise<void> {
  const sink = { usage: 0, results: 0, sessions: 0 };
  let measured = 0;
  const ctx = {
    onUsage: () => void sink.usage++,
    onResult: () => void sink.results++,
    onSession: () => void sink.sessions++,
  };
  for (const [name, stream, make] of [
    ['parser claude stream-json', claudeStream(), () => createClaudeStream(ctx, claudeConfigSchema.parse({}))],
    ['parser codex --json', codexStream(), () => createCodexStream(ctx, codexConfigSchema.parse({}))],
    ['parser gemini stream-json', geminiStream(), () => createGeminiStream(ctx, geminiConfigSchema.parse({}))],
    [
      'parser opencode --format json',
      opencodeStream(),
      () => createOpencodeStream(ctx, opencodeConfigSchema.parse({})),
    ],
  ] as const) {
    if (!selected(bench, name)) continue;
    const rate = mbPerSecond(stream, make);
    measured++;
    process.stdout.write(
      `${name}: ${rate.toFixed(1)} MB/s (best of ${ROUNDS} over ${(stream.length / 1024 / 1024).toFixed(0)} MB, 64 KiB chunks)\n`,
    );
    bench.figures[`${name} MB/s`] = rate;
  }
  if (measured > 0 && sink.usage === 0)
    throw new Error('parser bench: no usage parsed; the streams no longer match the parsers');
}

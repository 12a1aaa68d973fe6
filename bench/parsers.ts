// Issue 10 benchmark: the overhead of the CLI stream parsers per MB of output (MB/s through the
// shared line parser plus each adapter's event handling), in this process: no server, no child
// process, no database, so the figure is the parser's alone. Streams are in the real formats, fed
// in 64 KiB chunks as a pipe delivers them; callbacks only count.
import { createClaudeStream } from '../src/engine/adapters/claude.ts';
import { createCodexStream } from '../src/engine/adapters/codex.ts';
import { CLI_MAX_LINE_CHARS } from '../src/engine/adapters/local-cli.ts';
import { createLineParser } from '../src/engine/adapters/supervise.ts';
import { selected, type Bench } from './lib/measure.ts';

const STREAM_MB = 64;
const CHUNK = 64 * 1024;
const ROUNDS = 5;

function claudeStream(): string {
  const lines: string[] = [JSON.stringify({ type: 'system', subtype: 'init', session_id: 's-1', tools: [], model: 'claude-sonnet-4-5' })];
  let size = 0;
  for (let i = 0; size < STREAM_MB * 1024 * 1024; i++) {
    // Text of mixed sizes, a tool call and its result now and then: what a coding session prints.
    const text = 'lorem ipsum dolor sit amet '.repeat(1 + (i % 40));
    const event = i % 10 === 0
      ? { type: 'user', message: { role: 'user', content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: 'x'.repeat(4000) }] }, session_id: 's-1' }
      : { type: 'assistant', message: { id: `msg_${i >> 2}`, model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: i % 50 } }, session_id: 's-1' };
    const line = JSON.stringify(event);
    lines.push(line);
    size += line.length + 1;
  }
  lines.push(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: 's-1', total_cost_usd: 1.5, num_turns: 10 }));
  return `${lines.join('\n')}\n`;
}

function codexStream(): string {
  const lines: string[] = [JSON.stringify({ type: 'thread.started', thread_id: 't-1' })];
  let size = 0;
  for (let i = 0; size < STREAM_MB * 1024 * 1024; i++) {
    const event = i % 5 === 4
      ? { type: 'turn.completed', usage: { input_tokens: 2000, cached_input_tokens: 1500, output_tokens: 80 } }
      : { type: 'item.completed', item: { id: `item_${i}`, type: i % 2 ? 'agent_message' : 'command_execution', text: 'lorem ipsum '.repeat(1 + (i % 60)), aggregated_output: 'x'.repeat(i % 3000) } };
    const line = JSON.stringify(event);
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
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
  const ctx = { onUsage: () => void sink.usage++, onResult: () => void sink.results++, onSession: () => void sink.sessions++ };
  for (const [name, stream, make] of [
    ['parser claude stream-json', claudeStream(), () => createClaudeStream(ctx, { args: [] })],
    ['parser codex --json', codexStream(), () => createCodexStream(ctx, { args: [] })],
  ] as const) {
    if (!selected(bench, name)) continue;
    const rate = mbPerSecond(stream, make);
    measured++;
    process.stdout.write(`${name}: ${rate.toFixed(1)} MB/s (best of ${ROUNDS} over ${(stream.length / 1024 / 1024).toFixed(0)} MB, 64 KiB chunks)\n`);
    bench.figures[`${name} MB/s`] = rate;
  }
  if (measured > 0 && sink.usage === 0) throw new Error('parser bench: no usage parsed; the streams no longer match the parsers');
}

// Readable log lines for a terminal: `22:31:07 INFO  listening on http://... key=value ...`,
// level-coloured. JSON stays the format everywhere else (files, service managers, containers).
//
// A destination of our own rather than pino-pretty or a pino transport: transports load worker
// files by path, which the esbuild bundle `npm start` runs does not have. The lines it gets are the
// JSON pino wrote, after the serializers, so nothing the JSON would not show is shown here.

const LEVELS: Record<number, { name: string; colour: string }> = {
  10: { name: 'TRACE', colour: '90' },
  20: { name: 'DEBUG', colour: '36' },
  30: { name: 'INFO', colour: '32' },
  40: { name: 'WARN', colour: '33' },
  50: { name: 'ERROR', colour: '31' },
  60: { name: 'FATAL', colour: '35;1' },
};
// pino's own keys, and the ones shown in the line's head rather than as key=value.
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'req', 'res', 'responseTime', 'err']);
const MAX_VALUE_CHARS = 500;

const two = (n: number) => String(n).padStart(2, '0');

// Text from requests and agents reaches these lines: a control character (an escape sequence that
// retitles or writes to the operator's terminal, or a newline that forges a line) is shown as \xNN,
// never sent raw. Only a stack keeps its newlines.
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/g;
const CONTROL_BUT_NEWLINE = /[\x00-\x08\x0b-\x1f\x7f]/g;
const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
const visible = (text: string, control = CONTROL) => text.replace(control, hex);

function value(v: unknown): string {
  const text = typeof v === 'string' && /^[\x21-\x7e]+$/.test(v) && !/["=]/.test(v) ? v : JSON.stringify(v);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/** One JSON log line as a readable line (with its newline); a line that is not JSON passes unchanged. */
export function formatLogLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const paint = (code: string, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level ?? '?').toUpperCase(), colour: '0' };
  const at = new Date(typeof entry.time === 'number' ? entry.time : Date.now());
  const parts = [
    paint('90', `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`),
    paint(level.colour, level.name.padEnd(5)),
    visible(String(entry.msg ?? '')),
  ];

  // A request line: method, URL (already masked by the serializer), status and duration up front.
  const req = entry.req as { method?: unknown; url?: unknown } | undefined;
  const res = entry.res as { statusCode?: unknown } | undefined;
  if (req && typeof req === 'object')
    parts.push(visible(`${String(req.method ?? '')} ${String(req.url ?? '')}`.trim()));
  if (res && typeof res === 'object' && res.statusCode !== undefined) parts.push(String(res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime.toFixed(1)}ms`);
  for (const [key, v] of Object.entries(entry)) {
    if (!HIDDEN.has(key) && v !== undefined) parts.push(`${paint('90', `${key}=`)}${value(v)}`);
  }
  let text = parts.filter(Boolean).join(' ');
  const err = entry.err as { stack?: unknown; message?: unknown } | undefined;
  if (err && typeof err === 'object') {
    const stack = typeof err.stack === 'string' ? err.stack : String(err.message ?? '');
    text += `\n${visible(stack, CONTROL_BUT_NEWLINE).replace(/^/gm, '    ')}`;
  }
  return `${text}\n`;
}

/**
 * A pino destination writing readable lines to `out` (a terminal). Synchronous: a person reads
 * it, and a terminal line per log line is no cost worth batching for.
 */
export function readableDestination(out: NodeJS.WritableStream, colour: boolean): { write(line: string): void } {
  return {
    write(line: string) {
      out.write(formatLogLine(line, colour));
    },
  };
}

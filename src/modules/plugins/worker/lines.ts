// Byte-level framing of a worker's pipes: one JSON object per line on stdout (capped, so a worker
// cannot make the host buffer without bound), free text on stderr kept in a bounded ring.

/** Splits a stream into lines; a line longer than `maxBytes` (newline not yet seen) calls `onOverflow` once. */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private pending = 0;
  private overflowed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.overflowed) return;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      if (this.pending + piece.length > this.maxBytes) return this.overflow();
      this.chunks.push(piece);
      const line = Buffer.concat(this.chunks).toString('utf8');
      this.chunks = [];
      this.pending = 0;
      start = nl + 1;
      this.onLine(line);
      if (this.overflowed) return;
    }
    const rest = chunk.subarray(start);
    if (this.pending + rest.length > this.maxBytes) return this.overflow();
    if (rest.length > 0) {
      this.chunks.push(rest);
      this.pending += rest.length;
    }
  }

  /** What is left without a newline when the stream ends. */
  flush(): void {
    if (this.overflowed || this.pending === 0) return;
    const line = Buffer.concat(this.chunks).toString('utf8');
    this.chunks = [];
    this.pending = 0;
    this.onLine(line);
  }

  private overflow(): void {
    this.overflowed = true;
    this.chunks = [];
    this.pending = 0;
    this.onOverflow();
  }
}

export interface LogLine {
  at: string;
  /** `stderr`: a line the worker wrote to stderr; `log`: a `log` call; `host`: what the host recorded (start, exit, restart). */
  source: 'stderr' | 'log' | 'host';
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

/** The most recent `capacity` lines, each cut at `maxChars`. */
export class LogRing {
  private lines: LogLine[] = [];

  constructor(
    private readonly capacity: number,
    private readonly maxChars = 4096,
  ) {}

  add(source: LogLine['source'], level: LogLine['level'], message: string): void {
    const text = message.length > this.maxChars ? `${message.slice(0, this.maxChars)}…` : message;
    this.lines.push({ at: new Date().toISOString(), source, level, message: text });
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  list(): LogLine[] {
    return [...this.lines];
  }
}

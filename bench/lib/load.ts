// A small closed-loop HTTP load generator: N connections send requests back to back for a duration
// (or a fixed count), recording each latency. It shares the machine's cores with the servers it
// measures, so it is kept lean (raw sockets, requests written as bytes, only the status line and
// the framing of responses parsed, like autocannon): the less it spends per request, the more of
// a rate difference is the servers' own.
import http from 'node:http';
import net from 'node:net';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Every latency, unsorted: results of several rounds are merged from these. */
  latencies: number[];
}

export interface RequestSpec {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)]!;
}

export function summarize(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    rps: latencies.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    latencies,
  };
}

/** Several measurement rounds of one scenario as one result: their requests over their summed time. */
export function merge(results: LoadResult[]): LoadResult {
  const errors = results.reduce((sum, r) => sum + r.errors, 0);
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0);
  return summarize(
    results.flatMap((r) => r.latencies),
    errors,
    seconds,
  );
}

export class Client {
  private agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  /** `token` empty: no Authorization header (the ceiling process has no auth). */
  constructor(
    private base: URL,
    private token: string,
  ) {}

  private send<T>(
    spec: RequestSpec,
    onResponse: (res: http.IncomingMessage, resolve: (value: T) => void) => void,
  ): Promise<T> {
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          method: spec.method,
          path: spec.path,
          headers: {
            ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...spec.headers,
          },
        },
        (res) => {
          res.on('error', reject);
          onResponse(res, resolve);
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  request(spec: RequestSpec): Promise<{ status: number; body: any }> {
    return this.send(spec, (res, resolve) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON; keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
  }

  private encode(spec: RequestSpec): Buffer {
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    let head = `${spec.method} ${spec.path} HTTP/1.1\r\nhost: ${this.base.host}\r\n`;
    if (this.token) head += `authorization: Bearer ${this.token}\r\n`;
    if (payload !== undefined)
      head += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`;
    for (const [name, value] of Object.entries(spec.headers ?? {})) head += `${name}: ${value}\r\n`;
    return Buffer.from(`${head}\r\n${payload ?? ''}`);
  }

  /** Runs `make(i)` requests over `concurrency` connections until `durationMs` passes or `total` are sent. */
  async load(
    make: (i: number) => RequestSpec,
    opts: { concurrency: number; durationMs?: number; total?: number; okStatus?: number[]; first?: number },
  ): Promise<LoadResult> {
    const latencies: number[] = [];
    let errors = 0;
    // `first`: where `i` starts, so rounds of one scenario keep making distinct requests.
    let sent = 0;
    const offset = opts.first ?? 0;
    const ok = new Set(opts.okStatus ?? [200, 201, 202]);
    const started = performance.now();
    const deadline = opts.durationMs === undefined ? Infinity : started + opts.durationMs;
    const worker = async () => {
      let connection: Connection | null = null;
      try {
        while (performance.now() < deadline && (opts.total === undefined || sent < opts.total)) {
          const i = offset + sent++;
          const bytes = this.encode(make(i));
          const t0 = performance.now();
          try {
            connection ??= await Connection.open(this.base);
            if (!ok.has(await connection.send(bytes))) errors++;
          } catch {
            errors++;
            connection?.close();
            connection = null;
          }
          latencies.push(performance.now() - t0);
        }
      } finally {
        connection?.close();
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, worker));
    return summarize(latencies, errors, (performance.now() - started) / 1000);
  }

  close(): void {
    this.agent.destroy();
  }
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');

/** One keep-alive connection: one request at a time, answered with the response's status. */
class Connection {
  private pending: { resolve: (status: number) => void; reject: (err: Error) => void } | null = null;
  private buffer: Buffer = Buffer.alloc(0);

  private constructor(private socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    const fail = (err: Error) => {
      const pending = this.pending;
      this.pending = null;
      pending?.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
  }

  static open(base: URL): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: base.hostname, port: Number(base.port) }, () => {
        socket.off('error', reject);
        resolve(new Connection(socket));
      });
      socket.once('error', reject);
    });
  }

  send(bytes: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(bytes);
    });
  }

  /** Completes the pending request once its whole response (content-length or chunked) has arrived. */
  private parse(): void {
    const headerEnd = this.buffer.indexOf(HEADER_END);
    if (headerEnd === -1 || !this.pending) return;
    const head = this.buffer.toString('latin1', 0, headerEnd);
    const status = Number(head.slice(9, 12));
    const bodyStart = headerEnd + HEADER_END.length;
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let end: number;
    if (length) {
      end = bodyStart + Number(length[1]);
      if (this.buffer.length < end) return;
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const last = this.buffer.indexOf(CHUNKED_END, bodyStart);
      if (last === -1) return;
      end = last + CHUNKED_END.length;
    } else {
      end = bodyStart;
    }
    this.buffer = this.buffer.subarray(end);
    const pending = this.pending;
    this.pending = null;
    pending.resolve(status);
  }

  close(): void {
    this.socket.destroy();
  }
}

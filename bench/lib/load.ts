// A small closed-loop HTTP load generator: N workers send requests back to back for a duration
// (or a fixed count) over keep-alive connections, recording each latency.
import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
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
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

export class Client {
  private agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  constructor(
    private base: URL,
    private token: string,
  ) {}

  request(spec: RequestSpec): Promise<{ status: number; body: any }> {
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
            authorization: `Bearer ${this.token}`,
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...spec.headers,
          },
        },
        (res) => {
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
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** Runs `make(i)` requests from `concurrency` workers until `durationMs` passes or `total` are sent. */
  async load(make: (i: number) => RequestSpec, opts: { concurrency: number; durationMs?: number; total?: number; okStatus?: number[] }): Promise<LoadResult> {
    const latencies: number[] = [];
    let errors = 0;
    let sent = 0;
    const ok = new Set(opts.okStatus ?? [200, 201, 202]);
    const started = performance.now();
    const deadline = opts.durationMs === undefined ? Infinity : started + opts.durationMs;
    const worker = async () => {
      while (performance.now() < deadline && (opts.total === undefined || sent < opts.total)) {
        const i = sent++;
        const t0 = performance.now();
        try {
          const res = await this.request(make(i));
          if (!ok.has(res.status)) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, worker));
    return summarize(latencies, errors, (performance.now() - started) / 1000);
  }

  close(): void {
    this.agent.destroy();
  }
}

// The kitchen-sink worker: JSON-RPC 2.0, one JSON object per line over stdin/stdout (issue 27
// section 3). It answers the lifecycle calls every worker must: `initialize`, `health` and
// `shutdown`. The `invoke` handlers for the surfaces its manifest declares (the echo tool, the
// nightly job, the webhooks, the summary data and the post-greeting action) come with the worker
// runtime and its SDK; until then an `invoke` is answered with a "method not found" error, so a host
// never mistakes silence for success.
import { createInterface } from 'node:readline';

const MAX_LINE = 1024 * 1024;
const started = Date.now();
let initialized = null;

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

const methods = {
  initialize(params) {
    initialized = { pluginId: params?.pluginId ?? null, companyId: params?.companyId ?? null };
    return { ok: true, methods: ['initialize', 'health', 'shutdown'] };
  },
  health() {
    return { status: initialized ? 'ok' : 'starting', uptimeMs: Date.now() - started };
  },
  shutdown() {
    setImmediate(() => process.exit(0));
    return { ok: true };
  },
};

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  if (line.length > MAX_LINE) return send({ id: null, error: { code: -32600, message: 'line over 1 MiB' } });
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: 'parse error' } });
  }
  const handler = Object.hasOwn(methods, request?.method) ? methods[request.method] : null;
  // A notification (no id) gets no answer, as JSON-RPC says.
  if (request?.id === undefined) return;
  if (!handler) return send({ id: request.id, error: { code: -32601, message: `method not found: ${request?.method}` } });
  send({ id: request.id, result: handler(request.params) });
});
lines.on('close', () => process.exit(0));

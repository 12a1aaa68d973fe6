// boardroom/plugin-sdk: what a plugin worker is written with (issue 27 section 6). Plain ESM with no
// dependency and no import but node's own: a worker runs sandboxed and reads only its own package
// folder, so a plugin ships this file inside itself (the examples bundle it into their worker.mjs,
// `boardroom plugin init` copies it as one file). Types: index.d.ts.
//
//   definePlugin({ tools, data, actions, jobs, webhooks, events, validateConfig, configChanged, health })
//   runWorker(plugin)   the JSON-RPC 2.0 line loop over stdio the host speaks (docs/plugins.md)
//   blocks.*            builders of the typed UI blocks a `blocks` slot's data key answers
//
// Every handler is called as `handler(input, ctx)`: ctx holds `host` (the typed host calls, bound to
// this invocation), `signal` (aborted when the host cancels the invocation or shuts the worker down),
// `context` (company, actor, deadline and the invocation's own keys) and `config` (the plugin's
// config as the host last sent it: secret references, never values).

/** The longest line either side may write: the host kills a worker that writes a longer one. */
export const MAX_LINE_BYTES = 1024 * 1024;

const SURFACES = /** @type {const} */ (['tools', 'data', 'actions', 'jobs', 'webhooks', 'events']);
const KIND_SURFACE = { tool: 'tools', data: 'data', action: 'actions', job: 'jobs', webhook: 'webhooks', event: 'events' };
const PLUGIN_FIELDS = new Set([...SURFACES, 'validateConfig', 'configChanged', 'health', 'initialize']);

// JSON-RPC error codes.
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
/** A handler threw: the host answers the caller WORKER_ERROR with the message. */
const HANDLER_ERROR = -32000;

/**
 * Checks a plugin's shape once, where it is written (a misspelt surface or a handler that is not a
 * function fails at start, not at the first invocation), and returns it frozen.
 */
export function definePlugin(plugin) {
  if (plugin === null || typeof plugin !== 'object') throw new TypeError('definePlugin takes an object');
  for (const field of Object.keys(plugin))
    if (!PLUGIN_FIELDS.has(field))
      throw new TypeError(`definePlugin: unknown field "${field}" (known: ${[...PLUGIN_FIELDS].join(', ')})`);
  for (const surface of SURFACES) {
    const handlers = plugin[surface];
    if (handlers === undefined) continue;
    if (handlers === null || typeof handlers !== 'object') throw new TypeError(`definePlugin: ${surface} is an object`);
    for (const [key, handler] of Object.entries(handlers))
      if (typeof handler !== 'function') throw new TypeError(`definePlugin: ${surface}["${key}"] is not a function`);
  }
  for (const hook of ['validateConfig', 'configChanged', 'health', 'initialize'])
    if (plugin[hook] !== undefined && typeof plugin[hook] !== 'function')
      throw new TypeError(`definePlugin: ${hook} is not a function`);
  return Object.freeze({ ...plugin });
}

/** The handler for an event: the exact action first, then the narrowest family (`approval.*`), then `*`. */
function eventHandler(events, action) {
  if (!events) return undefined;
  if (Object.hasOwn(events, action)) return events[action];
  let best;
  let bestLength = -1;
  for (const [pattern, handler] of Object.entries(events)) {
    if (!pattern.endsWith('.*')) continue;
    const prefix = pattern.slice(0, -1);
    if (action.startsWith(prefix) && prefix.length > bestLength) {
      best = handler;
      bestLength = prefix.length;
    }
  }
  return best ?? (Object.hasOwn(events, '*') ? events['*'] : undefined);
}

/** A host call the host refused or failed: `code` is `CAPABILITY_DENIED` when the message says so. */
export class HostCallError extends Error {
  constructor(method, error) {
    const message = typeof error?.message === 'string' ? error.message : 'the host answered an error';
    super(`${method}: ${message}`);
    this.name = 'HostCallError';
    this.method = method;
    this.rpcCode = typeof error?.code === 'number' ? error.code : null;
    this.code = message.startsWith('CAPABILITY_DENIED') ? 'CAPABILITY_DENIED' : 'HOST_ERROR';
  }
}

/** `{ "$secret": "<config field>" }`: in http.fetch's url or a header, the host puts the secret there. */
export const secret = (configField) => ({ $secret: configField });

// The host's methods by namespace, exactly as the host names them (docs/plugins.md, host calls).
const HOST_METHODS = {
  issues: ['list', 'get', 'create', 'update', 'setStatus'],
  comments: ['list', 'create'],
  documents: ['get', 'put'],
  projects: ['list'],
  agents: ['list', 'get', 'wake'],
  goals: ['list'],
  routines: ['list'],
  activity: ['list'],
  costs: ['summary'],
  state: ['get', 'set', 'delete', 'list'],
  http: ['fetch'],
  stream: ['emit'],
};

/** The typed host calls for one invocation: `call(method, params)` adds its invocationId. */
function hostFor(call) {
  const host = { call, log: (params) => call('log', params) };
  for (const [namespace, methods] of Object.entries(HOST_METHODS)) {
    host[namespace] = {};
    for (const method of methods) host[namespace][method] = (params = {}) => call(`${namespace}.${method}`, params);
  }
  return Object.freeze(host);
}

/**
 * Serves `plugin` over stdio until the host sends `shutdown` or closes stdin. `io` is for tests that
 * drive it in-process (`{ input, output, exit }`); a worker calls `runWorker(plugin)`.
 */
export function runWorker(plugin, io = {}) {
  const input = io.input ?? process.stdin;
  const output = io.output ?? process.stdout;
  const exit = io.exit ?? ((code) => process.exit(code));
  const started = Date.now();
  /** The host's request id of each invoke in flight → its AbortController (what `cancel { id }` names). */
  const running = new Map();
  /** The worker's own calls to the host awaiting an answer. */
  const waiting = new Map();
  let nextCallId = 1;
  let session = null;
  let config = null;
  let closing = false;

  const send = (message) => {
    const line = JSON.stringify({ jsonrpc: '2.0', ...message });
    if (Buffer.byteLength(line) >= MAX_LINE_BYTES) {
      // Never write a line the host would kill us for: answer that the result was too large instead.
      if (message.id !== undefined && message.method === undefined)
        return send({ id: message.id, error: { code: HANDLER_ERROR, message: 'the answer is over 1 MiB' } });
      throw new Error(`a ${message.method ?? 'message'} over 1 MiB cannot be sent to the host`);
    }
    output.write(`${line}\n`);
  };

  const callHost = (invocationId) => (method, params) => {
    if (closing) return Promise.reject(new Error(`${method}: the worker is shutting down`));
    const id = nextCallId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { method, resolve, reject });
      try {
        send({ id, method, params: { ...params, invocationId } });
      } catch (err) {
        waiting.delete(id);
        reject(err);
      }
    });
  };

  const finish = (code) => {
    closing = true;
    for (const controller of running.values()) controller.abort(new Error('the worker is shutting down'));
    for (const call of waiting.values()) call.reject(new Error(`${call.method}: the worker is shutting down`));
    waiting.clear();
    setImmediate(() => exit(code));
  };

  async function invoke(requestId, params) {
    if (params === null || typeof params !== 'object')
      throw rpcError(INVALID_PARAMS, 'invoke takes { invocationId, kind, key, input, context }');
    const { invocationId, kind, key, input: data, context = {} } = params;
    const controller = new AbortController();
    running.set(requestId, controller);
    const ctx = {
      host: hostFor(callHost(typeof invocationId === 'string' ? invocationId : null)),
      signal: controller.signal,
      context,
      invocationId,
      kind,
      key,
      config: context.config ?? config,
    };
    try {
      if (kind === 'validateConfig') return plugin.validateConfig ? await plugin.validateConfig(data, ctx) : { ok: true };
      if (kind === 'configChanged') {
        config = data ?? null;
        if (plugin.configChanged) await plugin.configChanged(data, { ...ctx, config });
        return null;
      }
      const surface = KIND_SURFACE[kind];
      if (!surface) throw rpcError(INVALID_PARAMS, `unknown invoke kind ${JSON.stringify(kind)}`);
      const handlers = plugin[surface];
      const handler =
        kind === 'event' ? eventHandler(handlers, String(key)) : handlers && Object.hasOwn(handlers, key) ? handlers[key] : undefined;
      if (!handler) throw rpcError(METHOD_NOT_FOUND, `this plugin has no ${kind} handler for ${JSON.stringify(key)}`);
      const result = await handler(data, ctx);
      return result === undefined ? null : result;
    } finally {
      running.delete(requestId);
    }
  }

  const lifecycle = {
    async initialize(params) {
      session = { pluginId: params?.pluginId ?? null, companyId: params?.companyId ?? null };
      if (params?.config !== undefined) config = params.config;
      if (plugin.initialize) await plugin.initialize({ ...session, config });
      return { ok: true, methods: ['initialize', 'invoke', 'cancel', 'health', 'shutdown'] };
    },
    async health() {
      const base = { status: session ? 'ok' : 'starting', uptimeMs: Date.now() - started, inFlight: running.size };
      return plugin.health ? { ...base, ...(await plugin.health()) } : base;
    },
    shutdown() {
      finish(0);
      return { ok: true };
    },
  };

  async function onRequest(message) {
    const { id, method, params } = message;
    if (method === 'cancel') {
      running.get(params?.id)?.abort(new Error('the host cancelled this invocation'));
      if (id !== undefined) send({ id, result: { ok: true } });
      return;
    }
    const handler = method === 'invoke' ? (p) => invoke(id, p) : Object.hasOwn(lifecycle, method) ? lifecycle[method] : null;
    // A notification (no id) gets no answer, as JSON-RPC says.
    if (id === undefined) return;
    if (!handler) return send({ id, error: { code: METHOD_NOT_FOUND, message: `method not found: ${method}` } });
    try {
      send({ id, result: (await handler(params)) ?? null });
    } catch (err) {
      send({ id, error: errorOf(err) });
    }
  }

  function onResponse(message) {
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if (message.error !== undefined) call.reject(new HostCallError(call.method, message.error));
    else call.resolve(message.result ?? null);
  }

  function onLine(line) {
    if (line.trim() === '') return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return send({ id: null, error: { code: PARSE_ERROR, message: 'parse error: a line that is not JSON' } });
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message))
      return send({ id: null, error: { code: INVALID_REQUEST, message: 'not a JSON-RPC object' } });
    if (typeof message.method === 'string') return void onRequest(message);
    if (message.id !== undefined) onResponse(message);
  }

  const lines = lineReader(MAX_LINE_BYTES, onLine, () =>
    send({ id: null, error: { code: INVALID_REQUEST, message: 'a line over 1 MiB was dropped' } }),
  );
  input.on('data', (chunk) => lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  input.on('end', () => finish(0));
  return { stop: () => finish(0) };
}

/** Splits a byte stream into lines; a line over `max` bytes is dropped whole (up to its newline), once reported. */
function lineReader(max, onLine, onOversize) {
  let parts = [];
  let size = 0;
  let skipping = false;
  return {
    push(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, nl);
        start = nl + 1;
        if (skipping || size + piece.length > max) {
          if (!skipping) onOversize();
          skipping = false;
          parts = [];
          size = 0;
          continue;
        }
        parts.push(piece);
        const line = Buffer.concat(parts).toString('utf8');
        parts = [];
        size = 0;
        onLine(line);
      }
      const rest = chunk.subarray(start);
      if (skipping || rest.length === 0) return;
      if (size + rest.length > max) {
        onOversize();
        skipping = true;
        parts = [];
        size = 0;
        return;
      }
      parts.push(rest);
      size += rest.length;
    },
  };
}

/** An error with a JSON-RPC code (the SDK's own refusals); anything else a handler throws is HANDLER_ERROR. */
function rpcError(code, message) {
  return Object.assign(new Error(message), { rpcCode: code });
}

function errorOf(err) {
  const message = err instanceof Error ? err.message : String(err);
  const code = typeof err?.rpcCode === 'number' && !(err instanceof HostCallError) ? err.rpcCode : HANDLER_ERROR;
  return { code, message: message || 'the handler failed' };
}

// --- blocks: the typed UI a blocks slot shows (src/modules/plugins/blocks.ts is the schema the host checks) ---

const defined = (object) => Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));

export const blocks = Object.freeze({
  /** A figure: `metric('Spend this month', 12345, { unit: 'cents', caption, tone })`. */
  metric: (label, value, options = {}) => defined({ type: 'metric', label, value, ...options }),
  /** `table([{ key, label, unit? }], rows, { title })`: rows are objects keyed by column key. */
  table: (columns, rows, options = {}) => defined({ type: 'table', ...options, columns, rows }),
  /** `list([{ title, subtitle?, href?, tone? }], { title })`: href is a path inside the board. */
  list: (items, options = {}) => defined({ type: 'list', ...options, items }),
  /** `keyValue([{ label, value, unit? }], { title })`. */
  keyValue: (items, options = {}) => defined({ type: 'keyValue', ...options, items }),
  /** Markdown the board renders with its own sanitising renderer. */
  markdown: (text) => ({ type: 'markdown', text }),
  /** `chart('bar' | 'line', [{ label, points: [{ x, y }] }], { title, unit })`. */
  chart: (kind, series, options = {}) => defined({ type: 'chart', kind, ...options, series }),
  /** A form from the declared action's paramsSchema: `form('post-greeting', { title, submitLabel, values })`. */
  form: (action, options = {}) => defined({ type: 'form', ...options, action }),
  /** `buttons([{ label, action, params?, tone? }])`: each presses a declared action. */
  buttons: (buttons) => ({ type: 'buttons', buttons }),
  /** What a blocks slot's data handler returns: `{ blocks: [...] }`. */
  payload: (...list) => ({ blocks: list.flat() }),
});

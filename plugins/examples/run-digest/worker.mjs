// Built by scripts/build-plugin-examples.ts from plugins/examples/run-digest/src and boardroom/plugin-sdk: edit those and run `npm run plugins:build`, never this file.

// plugin-sdk/index.mjs
var MAX_LINE_BYTES = 1024 * 1024;
var SURFACES = (
  /** @type {const} */
  ["tools", "data", "actions", "jobs", "webhooks", "events"]
);
var KIND_SURFACE = { tool: "tools", data: "data", action: "actions", job: "jobs", webhook: "webhooks", event: "events" };
var PLUGIN_FIELDS = /* @__PURE__ */ new Set([...SURFACES, "validateConfig", "configChanged", "health", "initialize"]);
var PARSE_ERROR = -32700;
var INVALID_REQUEST = -32600;
var METHOD_NOT_FOUND = -32601;
var INVALID_PARAMS = -32602;
var HANDLER_ERROR = -32e3;
function definePlugin(plugin) {
  if (plugin === null || typeof plugin !== "object") throw new TypeError("definePlugin takes an object");
  for (const field of Object.keys(plugin))
    if (!PLUGIN_FIELDS.has(field))
      throw new TypeError(`definePlugin: unknown field "${field}" (known: ${[...PLUGIN_FIELDS].join(", ")})`);
  for (const surface of SURFACES) {
    const handlers = plugin[surface];
    if (handlers === void 0) continue;
    if (handlers === null || typeof handlers !== "object") throw new TypeError(`definePlugin: ${surface} is an object`);
    for (const [key, handler] of Object.entries(handlers))
      if (typeof handler !== "function") throw new TypeError(`definePlugin: ${surface}["${key}"] is not a function`);
  }
  for (const hook of ["validateConfig", "configChanged", "health", "initialize"])
    if (plugin[hook] !== void 0 && typeof plugin[hook] !== "function")
      throw new TypeError(`definePlugin: ${hook} is not a function`);
  return Object.freeze({ ...plugin });
}
function eventHandler(events, action) {
  if (!events) return void 0;
  if (Object.hasOwn(events, action)) return events[action];
  let best;
  let bestLength = -1;
  for (const [pattern, handler] of Object.entries(events)) {
    if (!pattern.endsWith(".*")) continue;
    const prefix = pattern.slice(0, -1);
    if (action.startsWith(prefix) && prefix.length > bestLength) {
      best = handler;
      bestLength = prefix.length;
    }
  }
  return best ?? (Object.hasOwn(events, "*") ? events["*"] : void 0);
}
var HostCallError = class extends Error {
  constructor(method, error) {
    const message = typeof error?.message === "string" ? error.message : "the host answered an error";
    super(`${method}: ${message}`);
    this.name = "HostCallError";
    this.method = method;
    this.rpcCode = typeof error?.code === "number" ? error.code : null;
    this.code = message.startsWith("CAPABILITY_DENIED") ? "CAPABILITY_DENIED" : "HOST_ERROR";
  }
};
var HOST_METHODS = {
  issues: ["list", "get", "create", "update", "setStatus"],
  comments: ["list", "create"],
  documents: ["get", "put"],
  projects: ["list"],
  agents: ["list", "get", "wake"],
  goals: ["list"],
  routines: ["list"],
  activity: ["list"],
  costs: ["summary"],
  state: ["get", "set", "delete", "list"],
  http: ["fetch"],
  stream: ["emit"]
};
function hostFor(call) {
  const host = { call, log: (params) => call("log", params) };
  for (const [namespace, methods] of Object.entries(HOST_METHODS)) {
    host[namespace] = {};
    for (const method of methods) host[namespace][method] = (params = {}) => call(`${namespace}.${method}`, params);
  }
  return Object.freeze(host);
}
function runWorker(plugin, io = {}) {
  const input = io.input ?? process.stdin;
  const output = io.output ?? process.stdout;
  const exit = io.exit ?? ((code) => process.exit(code));
  const started = Date.now();
  const running = /* @__PURE__ */ new Map();
  const waiting = /* @__PURE__ */ new Map();
  let nextCallId = 1;
  let session = null;
  let config = null;
  let closing = false;
  const send = (message) => {
    const line = JSON.stringify({ jsonrpc: "2.0", ...message });
    if (Buffer.byteLength(line) >= MAX_LINE_BYTES) {
      if (message.id !== void 0 && message.method === void 0)
        return send({ id: message.id, error: { code: HANDLER_ERROR, message: "the answer is over 1 MiB" } });
      throw new Error(`a ${message.method ?? "message"} over 1 MiB cannot be sent to the host`);
    }
    output.write(`${line}
`);
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
    for (const controller of running.values()) controller.abort(new Error("the worker is shutting down"));
    for (const call of waiting.values()) call.reject(new Error(`${call.method}: the worker is shutting down`));
    waiting.clear();
    setImmediate(() => exit(code));
  };
  async function invoke(requestId, params) {
    if (params === null || typeof params !== "object")
      throw rpcError(INVALID_PARAMS, "invoke takes { invocationId, kind, key, input, context }");
    const { invocationId, kind, key, input: data, context = {} } = params;
    const controller = new AbortController();
    running.set(requestId, controller);
    const ctx = {
      host: hostFor(callHost(typeof invocationId === "string" ? invocationId : null)),
      signal: controller.signal,
      context,
      invocationId,
      kind,
      key,
      config: context.config ?? config
    };
    try {
      if (kind === "validateConfig") return plugin.validateConfig ? await plugin.validateConfig(data, ctx) : { ok: true };
      if (kind === "configChanged") {
        config = data ?? null;
        if (plugin.configChanged) await plugin.configChanged(data, { ...ctx, config });
        return null;
      }
      const surface = KIND_SURFACE[kind];
      if (!surface) throw rpcError(INVALID_PARAMS, `unknown invoke kind ${JSON.stringify(kind)}`);
      const handlers = plugin[surface];
      const handler = kind === "event" ? eventHandler(handlers, String(key)) : handlers && Object.hasOwn(handlers, key) ? handlers[key] : void 0;
      if (!handler) throw rpcError(METHOD_NOT_FOUND, `this plugin has no ${kind} handler for ${JSON.stringify(key)}`);
      const result = await handler(data, ctx);
      return result === void 0 ? null : result;
    } finally {
      running.delete(requestId);
    }
  }
  const lifecycle = {
    async initialize(params) {
      session = { pluginId: params?.pluginId ?? null, companyId: params?.companyId ?? null };
      if (params?.config !== void 0) config = params.config;
      if (plugin.initialize) await plugin.initialize({ ...session, config });
      return { ok: true, methods: ["initialize", "invoke", "cancel", "health", "shutdown"] };
    },
    async health() {
      const base = { status: session ? "ok" : "starting", uptimeMs: Date.now() - started, inFlight: running.size };
      return plugin.health ? { ...base, ...await plugin.health() } : base;
    },
    shutdown() {
      finish(0);
      return { ok: true };
    }
  };
  async function onRequest(message) {
    const { id, method, params } = message;
    if (method === "cancel") {
      running.get(params?.id)?.abort(new Error("the host cancelled this invocation"));
      if (id !== void 0) send({ id, result: { ok: true } });
      return;
    }
    const handler = method === "invoke" ? (p) => invoke(id, p) : Object.hasOwn(lifecycle, method) ? lifecycle[method] : null;
    if (id === void 0) return;
    if (!handler) return send({ id, error: { code: METHOD_NOT_FOUND, message: `method not found: ${method}` } });
    try {
      send({ id, result: await handler(params) ?? null });
    } catch (err) {
      send({ id, error: errorOf(err) });
    }
  }
  function onResponse(message) {
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if (message.error !== void 0) call.reject(new HostCallError(call.method, message.error));
    else call.resolve(message.result ?? null);
  }
  function onLine(line) {
    if (line.trim() === "") return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return send({ id: null, error: { code: PARSE_ERROR, message: "parse error: a line that is not JSON" } });
    }
    if (message === null || typeof message !== "object" || Array.isArray(message))
      return send({ id: null, error: { code: INVALID_REQUEST, message: "not a JSON-RPC object" } });
    if (typeof message.method === "string") return void onRequest(message);
    if (message.id !== void 0) onResponse(message);
  }
  const lines = lineReader(
    MAX_LINE_BYTES,
    onLine,
    () => send({ id: null, error: { code: INVALID_REQUEST, message: "a line over 1 MiB was dropped" } })
  );
  input.on("data", (chunk) => lines.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  input.on("end", () => finish(0));
  return { stop: () => finish(0) };
}
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
        const line = Buffer.concat(parts).toString("utf8");
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
    }
  };
}
function rpcError(code, message) {
  return Object.assign(new Error(message), { rpcCode: code });
}
function errorOf(err) {
  const message = err instanceof Error ? err.message : String(err);
  const code = typeof err?.rpcCode === "number" && !(err instanceof HostCallError) ? err.rpcCode : HANDLER_ERROR;
  return { code, message: message || "the handler failed" };
}
var defined = (object) => Object.fromEntries(Object.entries(object).filter(([, v]) => v !== void 0));
var blocks = Object.freeze({
  /** A figure: `metric('Spend this month', 12345, { unit: 'cents', caption, tone })`. */
  metric: (label, value, options = {}) => defined({ type: "metric", label, value, ...options }),
  /** `table([{ key, label, unit? }], rows, { title })`: rows are objects keyed by column key. */
  table: (columns, rows, options = {}) => defined({ type: "table", ...options, columns, rows }),
  /** `list([{ title, subtitle?, href?, tone? }], { title })`: href is a path inside the board. */
  list: (items, options = {}) => defined({ type: "list", ...options, items }),
  /** `keyValue([{ label, value, unit? }], { title })`. */
  keyValue: (items, options = {}) => defined({ type: "keyValue", ...options, items }),
  /** Markdown the board renders with its own sanitising renderer. */
  markdown: (text) => ({ type: "markdown", text }),
  /** `chart('bar' | 'line', [{ label, points: [{ x, y }] }], { title, unit })`. */
  chart: (kind, series, options = {}) => defined({ type: "chart", kind, ...options, series }),
  /** A form from the declared action's paramsSchema: `form('post-greeting', { title, submitLabel, values })`. */
  form: (action, options = {}) => defined({ type: "form", ...options, action }),
  /** `buttons([{ label, action, params?, tone? }])`: each presses a declared action. */
  buttons: (buttons) => ({ type: "buttons", buttons }),
  /** What a blocks slot's data handler returns: `{ blocks: [...] }`. */
  payload: (...list) => ({ blocks: list.flat() })
});

// plugins/examples/run-digest/src/digest.mjs
var ENDED = ["succeeded", "failed", "timed_out", "cancelled"];
var WORDS = { succeeded: "Succeeded", failed: "Failed", timed_out: "Timed out", cancelled: "Cancelled" };
var money = (cents) => new Intl.NumberFormat("en", { style: "currency", currency: "USD" }).format(cents / 100);
var inWindow = (entry, from, to) => {
  const at = Date.parse(entry.createdAt);
  return at >= from.getTime() && at < to.getTime();
};
function tally(entries) {
  const agents = /* @__PURE__ */ new Map();
  const of = (id) => {
    const key = id ?? "unknown";
    if (!agents.has(key)) agents.set(key, { runs: Object.fromEntries(ENDED.map((s) => [s, 0])), costCents: 0, errors: [] });
    return agents.get(key);
  };
  for (const entry of entries) {
    const agentId = entry.details?.agentId ?? entry.agentId;
    if (entry.action.startsWith("heartbeat_run.")) {
      const status = entry.action.slice("heartbeat_run.".length);
      if (!ENDED.includes(status)) continue;
      const a = of(agentId);
      a.runs[status] += 1;
      if (status !== "succeeded" && typeof entry.details?.error === "string" && a.errors.length < 3)
        a.errors.push(entry.details.error.slice(0, 200));
    } else if (entry.action === "cost.reported" && typeof entry.details?.costCents === "number") {
      of(agentId).costCents += entry.details.costCents;
    }
  }
  return agents;
}
function digestMarkdown({ from, to, agents, names = {}, monthSpendCents = null }) {
  const day = to.toISOString().slice(0, 10);
  const rows = [...agents.entries()].sort(([, a], [, b]) => b.costCents - a.costCents);
  const total = (status) => rows.reduce((n, [, a]) => n + a.runs[status], 0);
  const spend = rows.reduce((n, [, a]) => n + a.costCents, 0);
  const ran = ENDED.reduce((n, s) => n + total(s), 0);
  const lines = [
    `# Run digest, ${day}`,
    "",
    `From ${from.toISOString().replace("T", " ").slice(0, 16)} to ${to.toISOString().replace("T", " ").slice(0, 16)} UTC.`,
    "",
    ran === 0 ? "- No run ended in this window." : `- ${ran} runs ended: ${ENDED.filter((s) => total(s) > 0).map((s) => `${total(s)} ${WORDS[s].toLowerCase()}`).join(", ")}.`,
    `- Spend reported: ${money(spend)}.`,
    ...monthSpendCents === null ? [] : [`- Spend this month so far: ${money(monthSpendCents)}.`]
  ];
  if (rows.length > 0) {
    lines.push("", "| Agent | Succeeded | Failed | Timed out | Cancelled | Spend |", "|---|---:|---:|---:|---:|---:|");
    for (const [id, a] of rows)
      lines.push(
        `| ${names[id] ?? (id === "unknown" ? "Unknown agent" : id.slice(0, 8))} | ${ENDED.map((s) => a.runs[s]).join(" | ")} | ${money(a.costCents)} |`
      );
    const failures = rows.filter(([, a]) => a.errors.length > 0);
    if (failures.length > 0) {
      lines.push("", "## What went wrong");
      for (const [id, a] of failures)
        for (const error of a.errors) lines.push(`- ${names[id] ?? id.slice(0, 8)}: ${error.replaceAll("\n", " ")}`);
    }
  }
  return `${lines.join("\n")}
`;
}

// plugins/examples/run-digest/src/worker.mjs
var DAY_MS = 864e5;
var PAGE = 200;
var MAX_PAGES = 50;
var ISSUE_STATE_KEY = "digest-issue";
async function windowEntries(host, from, to, signal) {
  const entries = [];
  let before;
  for (let page = 0; page < MAX_PAGES && !signal.aborted; page++) {
    const batch = await host.activity.list({ limit: PAGE, ...before ? { before } : {} });
    entries.push(...batch.filter((e) => inWindow(e, from, to)));
    const oldest = batch.at(-1);
    if (batch.length < PAGE || !oldest || Date.parse(oldest.createdAt) < from.getTime()) break;
    before = oldest.createdAt;
  }
  return entries;
}
async function digestIssue(host, config) {
  if (typeof config?.issueId === "string" && config.issueId) return config.issueId;
  const kept = (await host.state.get({ key: ISSUE_STATE_KEY })).value;
  if (typeof kept === "string") return kept;
  const issue = await host.issues.create({
    title: "Run digests",
    description: "The run-digest plugin writes a document here every day: the runs that ended and the spend, by agent.",
    priority: "low"
  });
  await host.state.set({ key: ISSUE_STATE_KEY, value: issue.id });
  return issue.id;
}
runWorker(
  definePlugin({
    jobs: {
      async "daily-digest"(input, { host, config, signal }) {
        const to = new Date(input.fireAt);
        const from = new Date(to.getTime() - DAY_MS);
        const agents = tally(await windowEntries(host, from, to, signal));
        const names = Object.fromEntries((await host.agents.list({})).map((a) => [a.id, a.name]));
        const summary = await host.costs.summary({});
        const body = digestMarkdown({
          from,
          to,
          agents,
          names,
          monthSpendCents: typeof summary?.spendCents === "number" ? summary.spendCents : null
        });
        const day = to.toISOString().slice(0, 10);
        await host.documents.put({
          issueId: await digestIssue(host, config),
          key: `run-digest-${day}`,
          title: `Run digest, ${day}`,
          body
        });
      }
    },
    validateConfig: (config) => config.issueId === void 0 || typeof config.issueId === "string" && config.issueId.trim() !== "" ? { ok: true, errors: [] } : { ok: false, errors: ["issueId: an issue id or identifier, or leave it out"] }
  })
);

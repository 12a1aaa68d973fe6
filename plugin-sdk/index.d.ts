// Types of boardroom/plugin-sdk (index.mjs). Shapes of the host calls follow docs/plugins.md.

export declare const MAX_LINE_BYTES: number;

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Who caused an invocation: the board user (UI calls), the agent and run (tools), or the plugin alone (jobs, events, webhooks). */
export interface InvocationActor {
  type: 'user' | 'agent' | 'plugin';
  id: string;
  runId?: string | null;
}

/** What the host tells the worker about an invocation. */
export interface InvocationContext {
  pluginId: string;
  companyId: string;
  actor: InvocationActor;
  /** ISO 8601: past it the host answers TIMEOUT and cancels. */
  deadlineAt: string;
  /** Tools: the agent, its run and issue. */
  agentId?: string | null;
  runId?: string | null;
  issueId?: string | null;
  /** Jobs: idempotency keys. */
  jobRunId?: string;
  attempt?: number;
  /** Webhooks. */
  deliveryId?: string;
  /** Events. */
  activityId?: string;
  [key: string]: unknown;
}

export type InvocationKind =
  | 'tool'
  | 'data'
  | 'action'
  | 'job'
  | 'webhook'
  | 'event'
  | 'validateConfig'
  | 'configChanged';

/** A reference to the company secret a config field names: the host substitutes it, the worker never sees it. */
export interface SecretRef {
  $secret: string;
}
export declare function secret(configField: string): SecretRef;

export type Params = Record<string, unknown>;

export interface HttpFetchParams {
  url: string | SecretRef;
  method?: string;
  headers?: Record<string, string | SecretRef>;
  body?: string;
}
export interface HttpFetchResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The typed host calls, each bound to the invocation it was handed to (the SDK adds `invocationId`). */
export interface Host {
  /** Any host method by name (for methods newer than these types). */
  call(method: string, params?: Params): Promise<unknown>;
  log(params: { level?: 'debug' | 'info' | 'warn' | 'error'; message: string }): Promise<unknown>;
  issues: {
    list(params?: { status?: string; assigneeAgentId?: string; projectId?: string; limit?: number }): Promise<any>;
    get(params: { issueId: string }): Promise<any>;
    create(params: {
      title: string;
      description?: string;
      projectId?: string;
      priority?: string;
      labelIds?: string[];
    }): Promise<any>;
    update(params: { issueId: string; title?: string; description?: string; priority?: string }): Promise<any>;
    setStatus(params: { issueId: string; status: string }): Promise<any>;
  };
  comments: {
    list(params: { issueId: string }): Promise<any>;
    create(params: { issueId: string; body: string }): Promise<any>;
  };
  documents: {
    get(params: { issueId: string; key: string }): Promise<any>;
    put(params: { issueId: string; key: string; title?: string; body: string }): Promise<any>;
  };
  projects: { list(params?: Params): Promise<any> };
  agents: {
    list(params?: Params): Promise<any>;
    get(params: { agentId: string }): Promise<any>;
    wake(params: { agentId: string; reason?: string; issueId?: string }): Promise<any>;
  };
  goals: { list(params?: Params): Promise<any> };
  routines: { list(params?: Params): Promise<any> };
  activity: { list(params?: { limit?: number; before?: string }): Promise<any> };
  costs: { summary(params?: Params): Promise<any> };
  state: {
    get(params: { key: string }): Promise<{ value: Json | null }>;
    set(params: { key: string; value: Json }): Promise<unknown>;
    delete(params: { key: string }): Promise<unknown>;
    list(params?: Params): Promise<any>;
  };
  http: { fetch(params: HttpFetchParams): Promise<HttpFetchResult> };
  stream: { emit(params: { channel: string; data: Json }): Promise<unknown> };
}

/** The second argument of every handler. */
export interface HandlerContext {
  host: Host;
  /** Aborted when the host cancels this invocation (its deadline passed) or the worker shuts down. */
  signal: AbortSignal;
  context: InvocationContext;
  invocationId: string;
  kind: InvocationKind;
  key: string | null;
  /** The plugin's config as the host last sent it (secret references, never values); null until it has. */
  config: Record<string, unknown> | null;
}

export type Handler<I = any, O = unknown> = (input: I, ctx: HandlerContext) => O | Promise<O>;

export interface JobInput {
  fireAt: string;
  trigger: 'schedule' | 'manual';
}
export interface WebhookInput {
  deliveryId: string;
  method: string;
  headers: Record<string, string>;
  /** The body as text. */
  body: string;
  /** The body parsed as JSON, or null. */
  json: Json | null;
}
/** An activity entry as GET /api/companies/{id}/activity presents it. */
export interface ActivityEvent {
  id: string;
  companyId: string;
  actorType: string;
  actorId: string;
  action: string;
  entityType: string;
  entityId: string;
  agentId: string | null;
  runId: string | null;
  details: Record<string, unknown> | null;
  createdAt: string;
}

export interface PluginDefinition {
  /** By tool name: the parameters (checked against the tool's inputSchema) → any JSON. */
  tools?: Record<string, Handler>;
  /** By data key: `params` → any JSON (a blocks slot's key answers a blocks payload). */
  data?: Record<string, Handler<Params>>;
  /** By action key: `params` (checked against paramsSchema) → any JSON. */
  actions?: Record<string, Handler<Params>>;
  jobs?: Record<string, Handler<JobInput, unknown>>;
  webhooks?: Record<string, Handler<WebhookInput, unknown>>;
  /** By activity action (`issue.created`), a family (`approval.*`) or `*`: the most specific wins. */
  events?: Record<string, Handler<ActivityEvent, unknown>>;
  validateConfig?: Handler<Record<string, unknown>, { ok: boolean; errors?: string[] }>;
  configChanged?: Handler<Record<string, unknown>, unknown>;
  /** Added to the worker's health answer. */
  health?: () => Record<string, Json> | Promise<Record<string, Json>>;
  /** Called once on `initialize`. */
  initialize?: (session: {
    pluginId: string | null;
    companyId: string | null;
    config: Record<string, unknown> | null;
  }) => void | Promise<void>;
}

export declare function definePlugin<T extends PluginDefinition>(plugin: T): Readonly<T>;

export interface WorkerIo {
  input?: NodeJS.ReadableStream;
  output?: { write(chunk: string): unknown };
  exit?: (code: number) => void;
}
export declare function runWorker(plugin: PluginDefinition, io?: WorkerIo): { stop(): void };

export declare class HostCallError extends Error {
  readonly method: string;
  readonly rpcCode: number | null;
  readonly code: 'CAPABILITY_DENIED' | 'HOST_ERROR';
}

// --- blocks (the schema: src/modules/plugins/blocks.ts) ---

export type Unit = 'count' | 'cents' | 'percent' | 'duration_ms';
export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';
export type Cell = string | number | boolean | null;

export interface MetricBlock {
  type: 'metric';
  label: string;
  value: number | string;
  unit?: Unit;
  caption?: string;
  tone?: Tone;
}
export interface TableBlock {
  type: 'table';
  title?: string;
  columns: { key: string; label: string; unit?: Unit }[];
  rows: Record<string, Cell>[];
}
export interface ListItem {
  title: string;
  subtitle?: string;
  /** A path inside the board (`/issues/BRD-12`). */
  href?: string;
  tone?: Tone;
}
export interface ListBlock {
  type: 'list';
  title?: string;
  items: ListItem[];
}
export interface KeyValueBlock {
  type: 'keyValue';
  title?: string;
  items: { label: string; value: Cell; unit?: Unit }[];
}
export interface MarkdownBlock {
  type: 'markdown';
  text: string;
}
export interface ChartSeries {
  label: string;
  points: { x: string; y: number }[];
}
export interface ChartBlock {
  type: 'chart';
  kind: 'bar' | 'line';
  title?: string;
  unit?: Unit;
  series: ChartSeries[];
}
export interface FormBlock {
  type: 'form';
  title?: string;
  action: string;
  submitLabel?: string;
  values?: Record<string, Cell>;
}
export interface Button {
  label: string;
  action: string;
  params?: Record<string, Cell>;
  tone?: 'default' | 'danger';
}
export interface ButtonsBlock {
  type: 'buttons';
  buttons: Button[];
}
export type Block =
  | MetricBlock
  | TableBlock
  | ListBlock
  | KeyValueBlock
  | MarkdownBlock
  | ChartBlock
  | FormBlock
  | ButtonsBlock;
export interface BlocksPayload {
  blocks: Block[];
}

export declare const blocks: {
  metric(label: string, value: number | string, options?: { unit?: Unit; caption?: string; tone?: Tone }): MetricBlock;
  table(columns: TableBlock['columns'], rows: TableBlock['rows'], options?: { title?: string }): TableBlock;
  list(items: ListItem[], options?: { title?: string }): ListBlock;
  keyValue(items: KeyValueBlock['items'], options?: { title?: string }): KeyValueBlock;
  markdown(text: string): MarkdownBlock;
  chart(kind: 'bar' | 'line', series: ChartSeries[], options?: { title?: string; unit?: Unit }): ChartBlock;
  form(action: string, options?: { title?: string; submitLabel?: string; values?: Record<string, Cell> }): FormBlock;
  buttons(buttons: Button[]): ButtonsBlock;
  payload(...blocks: (Block | Block[])[]): BlocksPayload;
};

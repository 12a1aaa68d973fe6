// The environment of a run (SPEC "Adapters", env contract): a small safe base, the agent's
// resolved adapterConfig.env, then the SERVICE_* contract on top so no configuration can spoof it.
//
// The base is an allow-list, never the server's own environment: that holds BOARDROOM_* keys
// (database URL, secrets master key) that an agent must never see.
import path from 'node:path';

export interface RunEnvInput {
  apiUrl: string;
  /** The run's agent JWT: handed to the agent as SERVICE_API_KEY and always masked in logs. */
  runToken: string;
  runId: string;
  agentId: string;
  companyId: string;
  issueId?: string | null;
  wakeReason?: string | null;
  wakeCommentId?: string | null;
  approvalId?: string | null;
  approvalStatus?: string | null;
  workspaceCwd?: string | null;
  /** adapterConfig.env with secret references already resolved to their plaintext. */
  configEnv?: Record<string, string>;
  /** Plaintext of every secret resolved into configEnv: the log writer masks them. */
  secretValues?: string[];
  /** Where the base keys are read from; the server's environment unless a test says otherwise. */
  baseEnv?: NodeJS.ProcessEnv;
}

export interface RunEnv {
  env: Record<string, string>;
  /** Values to mask in the run log: the run token plus the given secrets, deduplicated. */
  secrets: string[];
}

// PATH so commands resolve, HOME so CLIs find their config, LANG so output decodes as UTF-8.
export const BASE_ENV_KEYS = ['PATH', 'HOME', 'LANG'] as const;

// The contract names: reserved, so a configured SERVICE_TASK_ID cannot stand in for a run that
// has no issue (an unset optional is absent, whatever the config says).
export const SERVICE_ENV_KEYS = [
  'SERVICE_API_URL',
  'SERVICE_API_KEY',
  'SERVICE_RUN_ID',
  'SERVICE_AGENT_ID',
  'SERVICE_COMPANY_ID',
  'SERVICE_TASK_ID',
  'SERVICE_WAKE_REASON',
  'SERVICE_WAKE_COMMENT_ID',
  'SERVICE_APPROVAL_ID',
  'SERVICE_APPROVAL_STATUS',
  'SERVICE_WORKSPACE_CWD',
] as const;

type ServiceKey = (typeof SERVICE_ENV_KEYS)[number];
const RESERVED = new Set<string>(SERVICE_ENV_KEYS);

/** The allow-listed keys of `base`: what any process the server starts may inherit. */
export function safeBaseEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of BASE_ENV_KEYS) {
    const value = key === 'PATH' ? operatorPath(base) : base[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/**
 * PATH as the operator's shell had it. `npm start` (any `npm run`) puts in front of PATH
 * `<dir>/node_modules/.bin` for the package directory and each of its parents, then its own
 * node-gyp-bin; an agent would then run Boardroom's own `tsc` or `vite` instead of its project's
 * or the machine's. When the server was started through npm (npm_lifecycle_event or npm_config_*
 * set), those leading entries are dropped (a nested `npm run` adds them again: all of them go).
 */
export function operatorPath(base: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = base.PATH;
  const viaNpm =
    base.npm_lifecycle_event !== undefined || Object.keys(base).some((key) => key.startsWith('npm_config_'));
  if (value === undefined || !viaNpm) return value;
  const packageDir =
    base.npm_config_local_prefix || (base.npm_package_json ? path.dirname(base.npm_package_json) : process.cwd());
  const added = new Set<string>();
  for (let dir = path.resolve(packageDir); ; dir = path.dirname(dir)) {
    added.add(path.join(dir, 'node_modules', '.bin'));
    if (path.dirname(dir) === dir) break;
  }
  const entries = value.split(path.delimiter);
  const first = entries.findIndex((entry) => !added.has(entry) && !/[\\/]node-gyp-bin$/.test(entry));
  return first === -1 ? '' : entries.slice(first).join(path.delimiter);
}

export function buildRunEnv(input: RunEnvInput): RunEnv {
  const env = safeBaseEnv(input.baseEnv);
  for (const [key, value] of Object.entries(input.configEnv ?? {})) {
    if (!RESERVED.has(key)) env[key] = value;
  }
  const service: Record<ServiceKey, string | null | undefined> = {
    SERVICE_API_URL: input.apiUrl,
    SERVICE_API_KEY: input.runToken,
    SERVICE_RUN_ID: input.runId,
    SERVICE_AGENT_ID: input.agentId,
    SERVICE_COMPANY_ID: input.companyId,
    SERVICE_TASK_ID: input.issueId,
    SERVICE_WAKE_REASON: input.wakeReason,
    SERVICE_WAKE_COMMENT_ID: input.wakeCommentId,
    SERVICE_APPROVAL_ID: input.approvalId,
    SERVICE_APPROVAL_STATUS: input.approvalStatus,
    SERVICE_WORKSPACE_CWD: input.workspaceCwd,
  };
  for (const key of SERVICE_ENV_KEYS) {
    const value = service[key];
    if (value !== null && value !== undefined && value !== '') env[key] = value;
  }
  const secrets = [...new Set([input.runToken, ...(input.secretValues ?? [])])].filter((s) => s.length > 0);
  return { env, secrets };
}

// The HTTP client behind `boardroom mcp`: the run's own credentials, from the environment the engine
// gives every run (src/adapters/run-env.ts). No database access: the agent gets exactly its API.

/** The environment a run gets; the agent and company ids are optional (GET /api/agents/me fills them). */
export interface McpEnv {
  apiUrl: string;
  apiKey: string;
  runId: string;
  agentId?: string;
  companyId?: string;
  /** The issue the run is about (SERVICE_TASK_ID), when it is about one. */
  taskId?: string;
}

const REQUIRED = ['SERVICE_API_URL', 'SERVICE_API_KEY', 'SERVICE_RUN_ID'] as const;

export function readMcpEnv(env: NodeJS.ProcessEnv): McpEnv | { missing: string[] } {
  const apiUrl = env.SERVICE_API_URL?.trim();
  const apiKey = env.SERVICE_API_KEY?.trim();
  const runId = env.SERVICE_RUN_ID?.trim();
  if (!apiUrl || !apiKey || !runId) return { missing: REQUIRED.filter((key) => !env[key]?.trim()) };
  return {
    apiUrl: apiUrl.replace(/\/+$/, ''),
    apiKey,
    runId,
    ...(env.SERVICE_AGENT_ID?.trim() && { agentId: env.SERVICE_AGENT_ID.trim() }),
    ...(env.SERVICE_COMPANY_ID?.trim() && { companyId: env.SERVICE_COMPANY_ID.trim() }),
    ...(env.SERVICE_TASK_ID?.trim() && { taskId: env.SERVICE_TASK_ID.trim() }),
  };
}

export type ApiResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number; error: string; details?: unknown };

/** A slow or stuck server must not hang the agent's tool call forever. */
const REQUEST_TIMEOUT_MS = 60_000;
/** Responses are bounded by the API; this guards the agent's context against anything else. */
const MAX_RESPONSE_CHARS = 2 * 1024 * 1024;

export interface ApiClient {
  /** The issue the run is about, if any: the default of tools that name one. */
  taskId?: string;
  request(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<ApiResult>;
  /** The calling agent's id and company, from the environment or else GET /api/agents/me (once). */
  self(): Promise<{ agentId: string; companyId: string } | Extract<ApiResult, { ok: false }>>;
}

export function createApiClient(env: McpEnv, fetchImpl: typeof fetch = fetch): ApiClient {
  const request: ApiClient['request'] = async (method, path, body) => {
    let res: Response;
    try {
      res = await fetchImpl(`${env.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${env.apiKey}`,
          'x-service-run-id': env.runId,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      return {
        ok: false,
        status: 0,
        error: `cannot reach the Boardroom API at ${env.apiUrl}: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    const text = (await res.text().catch(() => '')).slice(0, MAX_RESPONSE_CHARS);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): kept as text.
    }
    if (res.ok) return { ok: true, status: res.status, body: parsed };
    const payload = parsed && typeof parsed === 'object' ? (parsed as { error?: unknown; details?: unknown }) : {};
    return {
      ok: false,
      status: res.status,
      error:
        typeof payload.error === 'string'
          ? payload.error
          : typeof parsed === 'string' && parsed
            ? parsed.slice(0, 1000)
            : res.statusText,
      ...(payload.details !== undefined && { details: payload.details }),
    };
  };
  let known = env.agentId && env.companyId ? { agentId: env.agentId, companyId: env.companyId } : null;
  return {
    ...(env.taskId && { taskId: env.taskId }),
    request,
    async self() {
      if (known) return known;
      const me = await request('GET', '/api/agents/me');
      if (!me.ok) return me;
      const agent = me.body as { id: string; companyId: string };
      known = { agentId: agent.id, companyId: agent.companyId };
      return known;
    },
  };
}

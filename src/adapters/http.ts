// The `http` adapter: a run is one signed POST to a receiver the agent's owner runs (a webhook
// endpoint, a gateway, a hosted agent). The receiver gets the run context and the run's token,
// answers 2xx to accept the work, does it on its own time, and reports the end with
// POST /api/heartbeat-runs/{runId}/complete (authenticated by that token), on any replica.
//
// The request: JSON body { runId, agent { id, name }, companyId, issueId, wakeReason, prompt,
// apiUrl, heartbeatContextUrl, completeUrl, runToken }, headers Content-Type: application/json,
// X-Service-Run-Id and X-Service-Signature: `sha256=` + hex HMAC-SHA256 of the exact body bytes
// under the agent's signing secret (POST /api/agents/{agentId}/signing-secret). An agent without a
// signing secret does not run: nothing is sent. Redirects are not followed (the body carries the
// run token; it goes to the configured URL or nowhere).
//
// Outcomes: a non-2xx answer, a network error or no answer within requestTimeoutSec fails the
// run (the error names the receiver's origin and the status code, never the token or the secret).
// After a 2xx the adapter only waits: the engine aborts ctx.signal when the run was finished
// elsewhere (the complete route on any replica, a cancel, the reaper), and the adapter then reports
// `cancelled`, which the engine records as a late fact only (the finisher's status stays); if the
// deadline (adapterConfig.timeoutSec) comes first, the run is timed_out.
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { configJsonSchema, runLimitFields } from './config-fields.ts';
import type { RunErrorCode } from '../core/run-failures.ts';
import type { AdapterOutcome, AdapterRunContext, EnvironmentCheck, ServerAdapter } from './types.ts';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const RUN_ID_HEADER = 'X-Service-Run-Id';
export const DEFAULT_REQUEST_TIMEOUT_SEC = 15;
export const MAX_REQUEST_TIMEOUT_SEC = 300;
/** Extra headers: a few, for routing or a gateway's own key, never the ones the adapter owns. */
export const MAX_EXTRA_HEADERS = 32;
/** Headers the adapter sets itself (or that frame the request): a configured one could forge or break it. */
export const RESERVED_HEADERS = [
  'content-type',
  'content-length',
  'x-service-signature',
  'x-service-run-id',
  'host',
  'transfer-encoding',
  'connection',
];
/** How much of a refusing receiver's answer goes to the run log. */
const ANSWER_LOG_BYTES = 1024;
/** testEnvironment's reachability probe. */
const PROBE_TIMEOUT_MS = 5_000;

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const url = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .superRefine((value, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not a valid URL' });
      return;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
    if (parsed.username || parsed.password)
      ctx.addIssue({ code: 'custom', message: 'must not carry credentials (use headers)' });
  });

const headers = z
  .record(
    z.string().min(1).max(100).regex(HEADER_NAME, 'is not a valid header name'),
    z
      .string()
      .max(4096)
      .refine((v) => !/[\r\n\0]/.test(v), 'must not contain CR, LF or NUL'),
  )
  .superRefine((value, ctx) => {
    const names = Object.keys(value);
    if (names.length > MAX_EXTRA_HEADERS)
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_EXTRA_HEADERS} headers` });
    const reserved = names.filter((name) => RESERVED_HEADERS.includes(name.toLowerCase()));
    if (reserved.length > 0)
      ctx.addIssue({ code: 'custom', message: `${reserved.join(', ')}: set by the adapter, cannot be configured` });
  });

export const httpConfigSchema = z.object({
  url: url.describe('the receiver: an http or https URL without credentials; each run is POSTed there, signed'),
  requestTimeoutSec: z
    .number()
    .positive()
    .max(MAX_REQUEST_TIMEOUT_SEC)
    .default(DEFAULT_REQUEST_TIMEOUT_SEC)
    .describe('seconds the POST itself may take before the run fails'),
  headers: headers
    .optional()
    .describe(`extra request headers (at most ${MAX_EXTRA_HEADERS}; not ${RESERVED_HEADERS.join(', ')})`),
  // The run's deadline and grace, read by the engine (grace has nothing to stop here).
  ...runLimitFields,
});
export type HttpConfig = z.infer<typeof httpConfigSchema>;

/** The X-Service-Signature value of a body: what a receiver recomputes over the raw bytes it got. */
export function signBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** The run context a receiver gets. */
export interface HttpRunRequest {
  runId: string;
  agent: { id: string; name: string };
  companyId: string;
  issueId: string | null;
  wakeReason: string | null;
  prompt: string;
  apiUrl: string;
  /** GET it with the run token for the full issue context; null when the run is about no issue. */
  heartbeatContextUrl: string | null;
  /** POST { status, result?, usage?, error? } here with the run token when the work ends. */
  completeUrl: string;
  /** The run's agent JWT: the Bearer credential for the API and for completeUrl. */
  runToken: string;
}

export function buildRunRequest(ctx: AdapterRunContext): HttpRunRequest | null {
  const apiUrl = (ctx.env.SERVICE_API_URL ?? '').replace(/\/+$/, '');
  const runToken = ctx.env.SERVICE_API_KEY ?? '';
  if (!apiUrl || !runToken) return null;
  return {
    runId: ctx.runId,
    agent: { id: ctx.agent.id, name: ctx.agent.name },
    companyId: ctx.agent.companyId,
    issueId: ctx.issueId,
    wakeReason: ctx.wakeReason,
    prompt: ctx.prompt,
    apiUrl,
    heartbeatContextUrl: ctx.issueId
      ? `${apiUrl}/api/issues/${encodeURIComponent(ctx.issueId)}/heartbeat-context`
      : null,
    completeUrl: `${apiUrl}/api/heartbeat-runs/${encodeURIComponent(ctx.runId)}/complete`,
    runToken,
  };
}

function formatZodError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
}

const failed = (errorCode: RunErrorCode, error: string): AdapterOutcome => ({
  status: 'failed',
  exitCode: null,
  signal: null,
  error,
  errorCode,
});
const cancelled = (): AdapterOutcome => ({ status: 'cancelled', exitCode: null, signal: null, error: null });

/** Why a fetch failed, without anything of the request (the cause's code, e.g. ECONNREFUSED). */
function networkError(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** Up to `limit` bytes of an answer's body, for the run log; the rest is dropped unread. */
async function answerSnippet(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A broken or aborted body: what arrived is enough.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

async function execute(ctx: AdapterRunContext): Promise<AdapterOutcome> {
  const parsed = httpConfigSchema.safeParse(ctx.agent.adapterConfig);
  if (!parsed.success)
    return failed('adapter_config_invalid', `invalid http adapter config: ${formatZodError(parsed.error)}`);
  const config = parsed.data;
  if (!ctx.signingSecret) {
    return failed(
      'credentials_missing',
      `the agent has no signing secret, so nothing was sent: generate one with POST /api/agents/${ctx.agent.id}/signing-secret`,
    );
  }
  const runRequest = buildRunRequest(ctx);
  // The engine builds that environment: without it, the defect is the engine's.
  if (!runRequest) return failed('engine_error', 'the run environment lacks SERVICE_API_URL or SERVICE_API_KEY');
  if (ctx.signal.aborted) return cancelled();

  const target = new URL(config.url);
  const origin = target.origin;
  const body = JSON.stringify(runRequest);
  const requestHeaders: Record<string, string> = {
    ...config.headers,
    'content-type': 'application/json',
    'x-service-run-id': ctx.runId,
    'x-service-signature': signBody(ctx.signingSecret, body),
  };

  // One place that decides why the work stopped; the request is aborted whatever the reason.
  type Stop = 'cancelled' | 'timed_out' | 'request_timeout';
  let stop: Stop | null = null;
  let announce: (reason: Stop) => void = () => undefined;
  const stopped = new Promise<Stop>((resolve) => (announce = resolve));
  const request = new AbortController();
  const stopWith = (reason: Stop) => {
    if (stop) return;
    stop = reason;
    request.abort();
    announce(reason);
  };
  const onAbort = () => stopWith('cancelled');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const deadline = setTimeout(() => stopWith('timed_out'), Math.max(0, ctx.timeoutSec) * 1000);
  const timedOut = (after: string): AdapterOutcome => ({
    status: 'timed_out',
    exitCode: null,
    signal: null,
    error: `deadline of ${ctx.timeoutSec}s passed ${after}`,
    errorCode: 'timeout',
  });

  try {
    ctx.onLog('stdout', `sending run ${ctx.runId} to ${origin}\n`);
    let response: Response;
    // Bounds the POST and, for a refusal, the read of its answer.
    const requestTimer = setTimeout(() => stopWith('request_timeout'), config.requestTimeoutSec * 1000);
    try {
      response = await fetch(target, {
        method: 'POST',
        headers: requestHeaders,
        body,
        redirect: 'manual',
        signal: request.signal,
      });
    } catch (err) {
      clearTimeout(requestTimer);
      const reason = stop as Stop | null;
      if (reason === 'cancelled') return cancelled();
      if (reason === 'timed_out') return timedOut(`before ${origin} answered`);
      if (reason === 'request_timeout')
        return failed(
          'http_unreachable',
          `no answer from ${origin} within ${config.requestTimeoutSec}s (requestTimeoutSec)`,
        );
      return failed('http_unreachable', `could not reach ${origin}: ${networkError(err)}`);
    }

    if (response.status < 200 || response.status > 299) {
      const snippet = await answerSnippet(response, ANSWER_LOG_BYTES);
      clearTimeout(requestTimer);
      ctx.onLog('stderr', `${origin} answered ${response.status}${snippet ? `: ${snippet}` : ''}\n`);
      const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
      return failed('http_rejected', `${origin} refused the run: status ${response.status}${redirect}`);
    }
    clearTimeout(requestTimer);
    await response.body?.cancel().catch(() => undefined);
    ctx.onLog(
      'stdout',
      `accepted by ${origin}, status ${response.status}; waiting for POST ${new URL(runRequest.completeUrl).pathname}\n`,
    );

    // Accepted: the receiver owns the work now. Wait for the run to be finished elsewhere (the
    // engine aborts ctx.signal) or for the deadline.
    const reason = await stopped;
    if (reason === 'timed_out') return timedOut(`without a completion from ${origin}`);
    return cancelled();
  } finally {
    clearTimeout(deadline);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Checks the configuration, then probes the URL once: an unsigned HEAD request with no body, no
 * run data and none of the configured headers, 5 s timeout, redirects not followed. Any HTTP
 * answer (even 404 or 405: many receivers only take POST) counts as reachable; only a network
 * error or no answer fails the check. The signing secret is per agent and not part of the
 * configuration: it is not checked here.
 */
async function testEnvironment(raw: Record<string, unknown>): Promise<EnvironmentCheck> {
  const parsed = httpConfigSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, checks: [{ name: 'config', ok: false, detail: formatZodError(parsed.error) }] };
  const target = new URL(parsed.data.url);
  const checks: EnvironmentCheck['checks'] = [{ name: 'config', ok: true, detail: 'valid' }];
  try {
    const response = await fetch(target, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    checks.push({
      name: 'reachable',
      ok: true,
      detail: `${target.origin} answered HEAD with status ${response.status}`,
    });
  } catch (err) {
    const timeout = (err as { name?: string } | null)?.name === 'TimeoutError';
    checks.push({
      name: 'reachable',
      ok: false,
      detail: timeout
        ? `no answer from ${target.origin} within ${PROBE_TIMEOUT_MS / 1000}s`
        : `could not reach ${target.origin}: ${networkError(err)}`,
    });
  }
  return { ok: checks.every((c) => c.ok), checks };
}

const AGENT_CONFIGURATION_DOC = `http: POSTs each run to a receiver, signed.
adapterConfig: url (required, http or https, up to 2048 characters), requestTimeoutSec (for the
POST itself; default ${DEFAULT_REQUEST_TIMEOUT_SEC}, at most ${MAX_REQUEST_TIMEOUT_SEC}), headers (up to ${MAX_EXTRA_HEADERS} extra headers; not
${RESERVED_HEADERS.join(', ')}), timeoutSec (the run's deadline), graceSec.
Needs a signing secret: POST /api/agents/{agentId}/signing-secret (shown once; again to rotate).
Body (JSON): runId, agent {id, name}, companyId, issueId, wakeReason, prompt, apiUrl,
heartbeatContextUrl (null without an issue), completeUrl, runToken. Headers: X-Service-Run-Id and
X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body with the signing secret>.
Answer 2xx to accept; anything else fails the run. Then POST completeUrl with
Authorization: Bearer <runToken> and {status: succeeded|failed, result?, usage?, error?} before
the deadline, or the run times out.`;

/** Package-style factory: the registry loads built-ins exactly as it loads external adapters. */
export function createServerAdapter(): ServerAdapter {
  return {
    type: 'http',
    label: 'HTTP receiver',
    models: [],
    agentConfigurationDoc: AGENT_CONFIGURATION_DOC,
    usesSigningSecret: true,
    configSchema: configJsonSchema(httpConfigSchema),
    execute,
    testEnvironment,
  };
}

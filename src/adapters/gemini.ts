// `gemini_local`: a run is one Gemini CLI invocation,
//   gemini --output-format stream-json [--model m] [--resume <sessionId>] <adapterConfig.args...>
// with the wake prompt on stdin (stdin not a TTY: the CLI runs headless and reads its prompt there),
// supervised like any local process (supervise.ts).
//
// Events parsed from stdout (JSONL, the shapes of gemini-cli's packages/core/src/output/types.ts):
// - {"type":"init","session_id","model"}: the session, reported at once (onSession); the model.
// - {"type":"message","role":"assistant","content","delta"?}: answer text; the chunks after the
//   last tool call are the summary (text before a tool call is narration, not the answer).
// - {"type":"tool_use",...} / {"type":"tool_result",...}: only mark the turn boundary; log otherwise.
// - {"type":"error","severity","message"}: a warning or error; fails the run only without a result.
// - {"type":"result","status":"success"|"error","error"?:{type,message},"stats":{input_tokens,
//   output_tokens,cached,...}}: the run's usage (input_tokens includes the cached ones), reported
//   when it arrives (provider google; Gemini reports no cost, so the price table prices it); a
//   status "error" fails the run with its message.
// Stats come only with the result, so a run's usage is one report at its end.
// Exit codes: 0 ok, 1 error, 42 input error, 53 turn limit; any non-zero fails the run.
// Resume rejected: the CLI prints `Error resuming session: Invalid session identifier "<id>"` (or
// `No previous sessions found`) and exits: that forgets the session and runs once more, fresh.
import { z } from 'zod';
import {
  bounded,
  executeLocalCli,
  MAX_SUMMARY_CHARS,
  lastLine,
  localCliConfigFields,
  record,
  testCliEnvironment,
  tokens,
  usableSessionId,
} from './local-cli.ts';
import { configJsonSchema } from './config-fields.ts';
import type { AdapterOutcome, AdapterRunContext, ServerAdapter } from './types.ts';

export const geminiConfigSchema = z.object(localCliConfigFields('gemini'));
export type GeminiConfig = z.output<typeof geminiConfigSchema>;

export const GEMINI_RESUME_REJECTED = /\binvalid session identifier\b|\bno previous sessions found\b/i;

export function geminiArgs(config: GeminiConfig, sessionId: string | null): string[] {
  const args = ['--output-format', 'stream-json'];
  if (config.model) args.push('--model', config.model);
  if (sessionId) args.push('--resume', sessionId);
  return [...args, ...config.args];
}

export function createGeminiStream(
  ctx: Pick<AdapterRunContext, 'onUsage' | 'onResult' | 'onSession'>,
  config: GeminiConfig,
) {
  let sessionId: string | null = null;
  let model = config.model;
  let answer = '';
  let result: Record<string, unknown> | null = null;
  let lastError: string | null = null;
  const onObject = (obj: Record<string, unknown>) => {
    switch (obj.type) {
      case 'init': {
        const id = usableSessionId(obj.session_id);
        if (id && id !== sessionId) {
          sessionId = id;
          ctx.onSession(id);
        }
        if (typeof obj.model === 'string' && obj.model.length > 0 && obj.model.length <= 200) model = obj.model;
        break;
      }
      case 'message':
        // An answer stops growing at the bound: later chunks cost nothing (no copy of it).
        if (
          obj.role === 'assistant' &&
          typeof obj.content === 'string' &&
          (obj.delta !== true || answer.length <= MAX_SUMMARY_CHARS)
        ) {
          answer = bounded((obj.delta === true ? answer : '') + obj.content);
        }
        break;
      case 'tool_use':
        answer = '';
        break;
      case 'error':
        lastError = bounded(String(obj.message ?? 'error'), 4000);
        break;
      case 'result': {
        result = obj;
        const stats = record(obj.stats);
        if (!stats) break;
        const input = tokens(stats.input_tokens);
        ctx.onUsage({
          provider: 'google',
          ...(model && { model }),
          inputTokens: input,
          cachedInputTokens: Math.min(tokens(stats.cached), input),
          outputTokens: tokens(stats.output_tokens),
          billingType: config.billingType ?? 'unknown',
        });
        break;
      }
    }
  };
  const finish = (outcome: AdapterOutcome, stderrTail: string): { outcome: AdapterOutcome; errorText: string } => {
    const summary = answer.trim();
    if (summary.length > 0 || sessionId)
      ctx.onResult({ ...(summary.length > 0 && { summary }), ...(sessionId && { sessionId }) });
    const r = result as Record<string, unknown> | null;
    const resultError =
      r && r.status !== 'success'
        ? bounded(String(record(r.error)?.message ?? `result status ${String(r.status)}`), 4000)
        : null;
    const errorText = [resultError ?? '', lastError ?? '', stderrTail].join('\n');
    if (outcome.status === 'timed_out' || outcome.status === 'cancelled') return { outcome, errorText };
    if (resultError !== null || outcome.status === 'failed') {
      return {
        outcome: {
          ...outcome,
          status: 'failed',
          error: resultError ?? lastError ?? lastLine(stderrTail) ?? outcome.error,
        },
        errorText,
      };
    }
    if (!r)
      return {
        outcome: {
          ...outcome,
          status: 'failed',
          error:
            lastError ??
            'gemini ended without a result event: is its stream-json format still the one this adapter parses?',
        },
        errorText,
      };
    return { outcome, errorText };
  };
  return { onObject, finish };
}

const execute = (ctx: AdapterRunContext) =>
  executeLocalCli(ctx, {
    type: 'gemini_local',
    schema: geminiConfigSchema,
    args: geminiArgs,
    stream: createGeminiStream,
    resumeRejected: GEMINI_RESUME_REJECTED,
  });

const AGENT_CONFIGURATION_DOC = `gemini_local: runs the Gemini CLI (\`gemini --output-format stream-json\`) per heartbeat, the wake prompt on stdin, resuming this agent's session for the issue (--resume <sessionId>).
adapterConfig: command (default "gemini"), args (string[], after the adapter's flags, e.g. ["--approval-mode", "yolo"]), cwd, env (values may be secret references, e.g. GEMINI_API_KEY),
timeoutSec, graceSec, inactivityTimeoutSec (default 300: stopped after that many seconds without new output; 0 disables), model (--model), billingType (how usage is paid; default unknown: the price table prices the tokens).`;

export function createServerAdapter(): ServerAdapter {
  return {
    type: 'gemini_local',
    label: 'Gemini CLI (local)',
    models: [],
    agentConfigurationDoc: AGENT_CONFIGURATION_DOC,
    configSchema: configJsonSchema(geminiConfigSchema),
    execute,
    testEnvironment: (config) =>
      testCliEnvironment(config, {
        schema: geminiConfigSchema,
        apiKeyEnv: 'GEMINI_API_KEY',
        login: { configDir: '.gemini' },
      }),
  };
}

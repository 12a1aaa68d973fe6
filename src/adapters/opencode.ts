// `opencode_local`: a run is one opencode invocation,
//   opencode run --format json [--model provider/model] [--session <sessionId>] <adapterConfig.args...>
// with the wake prompt on stdin (opencode appends a piped stdin to the message; no message argument,
// so the prompt's size is not bounded by argv), supervised like any local process (supervise.ts).
//
// Events parsed from stdout (JSONL {"type","timestamp","sessionID",...}, the shapes opencode's
// `run` command writes):
// - any event's "sessionID": the session, reported at once (onSession).
// - {"type":"step_start","part"}: a model step begins.
// - {"type":"text","part":{"text"}}: a finished text part; the text of the last step that has text
//   is the summary.
// - {"type":"tool_use","part":{"tool","state"}}: a finished tool call; log only.
// - {"type":"step_finish","part":{"reason","cost","tokens":{"input","output","reasoning",
//   "cache":{"read","write"}}}}: that step's usage, reported as it arrives: inputTokens = input +
//   cache read + cache write, cachedInputTokens = cache read, outputTokens = output + reasoning.
//   opencode prices its steps in USD (`cost`): the report carries the cents, so the server does
//   not price the tokens again (a step without `cost` leaves pricing to the price table).
// - {"type":"error","error":{"name","data":{"message"}}}: fails the run unless a step finished after it.
// opencode has no final event: a run that exits without any step_finish fails (`opencode run -s
// <unknown>` exits 0 with nothing on stdout and the NotFoundError on stderr).
// Resume rejected: with a session to resume, a failure whose error or stderr says `Session not
// found` forgets it and runs once more, fresh.
import path from 'node:path';
import { z } from 'zod';
import { MAX_EVENT_COST_CENTS } from '../core/cost-bounds.ts';
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
  usdToCents,
} from './local-cli.ts';
import { configJsonSchema } from './config-fields.ts';
import type { AdapterOutcome, AdapterRunContext, ServerAdapter } from './types.ts';

export const opencodeConfigSchema = z.object(localCliConfigFields('opencode'));
export type OpencodeConfig = z.output<typeof opencodeConfigSchema>;

export const OPENCODE_RESUME_REJECTED = /\bsession not found\b/i;

export function opencodeArgs(config: OpencodeConfig, sessionId: string | null): string[] {
  const args = ['run', '--format', 'json'];
  if (config.model) args.push('--model', config.model);
  if (sessionId) args.push('--session', sessionId);
  return [...args, ...config.args];
}

/** "provider/model" (opencode's --model) as the usage's provider and model. */
function providerAndModel(model: string | undefined): { provider: string; model?: string } {
  const at = model?.indexOf('/') ?? -1;
  return model && at > 0
    ? { provider: model.slice(0, at), model: model.slice(at + 1) }
    : { provider: 'opencode', ...(model && { model }) };
}

export function createOpencodeStream(
  ctx: Pick<AdapterRunContext, 'onUsage' | 'onResult' | 'onSession'>,
  config: OpencodeConfig,
) {
  const source = providerAndModel(config.model);
  let sessionId: string | null = null;
  let stepText = '';
  let stepHasText = false;
  let summary = '';
  let steps = 0;
  let usd = 0;
  let reportedCents = 0;
  let pendingError: string | null = null;
  const onObject = (obj: Record<string, unknown>) => {
    const id = usableSessionId(obj.sessionID);
    if (id && id !== sessionId) {
      sessionId = id;
      ctx.onSession(id);
    }
    const part = record(obj.part);
    switch (obj.type) {
      case 'step_start':
        stepText = '';
        stepHasText = false;
        break;
      case 'text':
        if (typeof part?.text === 'string') {
          // A step's text stops growing at the bound: later parts cost nothing (no copy, no trim of it).
          if (stepText.length <= MAX_SUMMARY_CHARS) stepText = bounded(stepText + part.text);
          stepHasText ||= part.text.trim() !== '';
          if (stepHasText) summary = stepText;
        }
        break;
      case 'step_finish': {
        steps += 1;
        pendingError = null;
        const t = record(part?.tokens);
        const cache = record(t?.cache);
        const cached = tokens(cache?.read);
        const cost = part?.cost;
        // Cents of the running USD total, reported as they grow: rounding each step up would overcount.
        let costCents: number | undefined;
        if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) {
          usd += cost;
          const total = usdToCents(usd);
          costCents = Math.min(Math.max(total - reportedCents, 0), MAX_EVENT_COST_CENTS);
          reportedCents += costCents;
        }
        ctx.onUsage({
          ...source,
          inputTokens: tokens(tokens(t?.input) + cached + tokens(cache?.write)),
          cachedInputTokens: cached,
          outputTokens: tokens(tokens(t?.output) + tokens(t?.reasoning)),
          ...(costCents !== undefined && { costCents }),
          billingType: config.billingType ?? 'unknown',
        });
        break;
      }
      case 'error': {
        const error = record(obj.error);
        pendingError = bounded(String(record(error?.data)?.message ?? error?.name ?? 'error'), 4000);
        break;
      }
    }
  };
  const finish = (outcome: AdapterOutcome, stderrTail: string): { outcome: AdapterOutcome; errorText: string } => {
    const text = summary.trim();
    if (text.length > 0 || sessionId)
      ctx.onResult({ ...(text.length > 0 && { summary: text }), ...(sessionId && { sessionId }) });
    const errorText = [pendingError ?? '', stderrTail].join('\n');
    if (outcome.status === 'timed_out' || outcome.status === 'cancelled') return { outcome, errorText };
    if (pendingError !== null || outcome.status === 'failed') {
      return {
        outcome: { ...outcome, status: 'failed', error: pendingError ?? lastLine(stderrTail) ?? outcome.error },
        errorText,
      };
    }
    if (steps === 0) {
      return {
        outcome: {
          ...outcome,
          status: 'failed',
          error:
            lastLine(stderrTail) ??
            'opencode ended without a step_finish event: is its --format json output still the one this adapter parses?',
        },
        errorText,
      };
    }
    return { outcome, errorText };
  };
  return { onObject, finish };
}

const execute = (ctx: AdapterRunContext) =>
  executeLocalCli(ctx, {
    type: 'opencode_local',
    schema: opencodeConfigSchema,
    args: opencodeArgs,
    stream: createOpencodeStream,
    resumeRejected: OPENCODE_RESUME_REJECTED,
  });

const AGENT_CONFIGURATION_DOC = `opencode_local: runs opencode (\`opencode run --format json\`) per heartbeat, the wake prompt on stdin, resuming this agent's session for the issue (--session <sessionId>).
adapterConfig: command (default "opencode"), args (string[], after the adapter's flags, e.g. ["--agent", "build"]), cwd, env (values may be secret references, e.g. ANTHROPIC_API_KEY),
timeoutSec, graceSec, inactivityTimeoutSec (default 300: stopped after that many seconds without new output; 0 disables), model (--model, "provider/model"), billingType (how usage is paid; default unknown). opencode reports each step's cost in USD: it is recorded as is.`;

export function createServerAdapter(): ServerAdapter {
  return {
    type: 'opencode_local',
    label: 'opencode (local)',
    models: [],
    agentConfigurationDoc: AGENT_CONFIGURATION_DOC,
    configSchema: configJsonSchema(opencodeConfigSchema),
    execute,
    // opencode keeps provider logins in ~/.local/share/opencode (auth.json); keys may also be in env.
    testEnvironment: (config) =>
      testCliEnvironment(config, {
        schema: opencodeConfigSchema,
        apiKeyEnv: 'OPENCODE_API_KEY',
        login: { configDir: path.join('.local', 'share', 'opencode') },
      }),
  };
}

// `claude_local`: a run is one Claude Code invocation,
//   claude --print --output-format stream-json --verbose [--resume <sessionId>] [--model m]
//          [--max-turns n] [--permission-mode p] [--add-dir <skillsDir>] [--mcp-config <json>] <adapterConfig.args...>
// with the wake prompt on stdin, supervised like any local process (supervise.ts).
//
// Events parsed from stdout (one JSON object per line; anything else is only log):
// - {"type":"system","subtype":"init","session_id"}: the session, reported at once (onSession).
// - {"type":"assistant","message":{"id","model","usage":{input_tokens, cache_read_input_tokens,
//   cache_creation_input_tokens, output_tokens}}}: usage as it arrives. Claude Code repeats one
//   message's usage on each of its content blocks, so per message id only the growth since the
//   last report is reported: nothing is counted twice.
// - {"type":"result","subtype":"success"|"error_...","is_error","result","session_id",
//   "total_cost_usd","num_turns"}: the summary (result), the session, the run's cost.
// Cost: the CLI prices its own run and says so once, in total_cost_usd. Token reports therefore
// carry costCents 0 (so the server's price table does not price them as well) and the result's
// cost is one more report with zero tokens: tokens and money each counted exactly once. A run
// stopped before its result event records its tokens but no cost.
// Resume rejected: with a session to resume, a failure whose stderr or result says
// "No conversation found with session ID" forgets the session and runs once more, fresh.
import { z } from 'zod';
import {
  bounded,
  executeLocalCli,
  lastLine,
  localCliConfigFields,
  mcpField,
  record,
  testCliEnvironment,
  tokens,
  usableSessionId,
  usdToCents,
} from './local-cli.ts';
import { claudeLoginProbe } from './cli-login.ts';
import { configJsonSchema } from './config-fields.ts';
import { claudeMcpArgs } from './mcp-config.ts';
import type { AdapterOutcome, AdapterRunContext, ServerAdapter } from './types.ts';

export const claudeConfigSchema = z.object({
  ...localCliConfigFields('claude'),
  maxTurns: z
    .number()
    .int()
    .positive()
    .max(10_000)
    .optional()
    .describe("--max-turns: the most agentic turns of one run; unset: the CLI's own limit"),
  // Claude Code's modes (default, acceptEdits, plan, bypassPermissions, ...): a word, passed as is.
  permissionMode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{1,50}$/, 'must be a single word such as acceptEdits')
    .optional()
    .describe("--permission-mode: default, acceptEdits, plan, bypassPermissions, ...; unset: the CLI's own"),
  skillsDir: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("a directory made readable to the CLI with --add-dir (the engine sets the agent's skills directory)"),
  mcp: mcpField,
});
export type ClaudeConfig = z.output<typeof claudeConfigSchema>;

export const CLAUDE_RESUME_REJECTED = /No conversation found with session ID/i;

export function claudeArgs(config: ClaudeConfig, sessionId: string | null): string[] {
  const args = ['--print', '--output-format', 'stream-json', '--verbose'];
  if (sessionId) args.push('--resume', sessionId);
  if (config.model) args.push('--model', config.model);
  if (config.maxTurns !== undefined) args.push('--max-turns', String(config.maxTurns));
  if (config.permissionMode) args.push('--permission-mode', config.permissionMode);
  if (config.skillsDir) args.push('--add-dir', config.skillsDir);
  if (config.mcp !== false) args.push(...claudeMcpArgs());
  return [...args, ...config.args];
}

/** The stream-json parser of one run: turns events into ctx reports; `finish` gives the outcome. */
export function createClaudeStream(
  ctx: Pick<AdapterRunContext, 'onUsage' | 'onResult' | 'onSession'>,
  config: ClaudeConfig,
) {
  const counted = new Map<string, { input: number; cached: number; output: number }>();
  let model: string | undefined;
  let sessionId: string | null = null;
  let result: Record<string, unknown> | null = null;
  const noteSession = (value: unknown) => {
    const id = usableSessionId(value);
    if (id && id !== sessionId) {
      sessionId = id;
      ctx.onSession(id);
    }
  };
  const onObject = (obj: Record<string, unknown>) => {
    if (obj.type === 'system' && obj.subtype === 'init') {
      noteSession(obj.session_id);
    } else if (obj.type === 'assistant') {
      const message = record(obj.message);
      const usage = record(message?.usage);
      if (!message || !usage) return;
      if (typeof message.model === 'string' && message.model.length <= 200) model = message.model;
      const cached = tokens(usage.cache_read_input_tokens);
      const now = {
        input: tokens(usage.input_tokens) + cached + tokens(usage.cache_creation_input_tokens),
        cached,
        output: tokens(usage.output_tokens),
      };
      const key = typeof message.id === 'string' ? message.id : null;
      const before = (key && counted.get(key)) || { input: 0, cached: 0, output: 0 };
      const delta = {
        input: Math.max(0, now.input - before.input),
        cached: Math.max(0, now.cached - before.cached),
        output: Math.max(0, now.output - before.output),
      };
      if (key) {
        // Bounded: a run has few messages in flight; old ids are never reported again.
        const oldest = counted.keys().next();
        if (counted.size >= 1000 && !oldest.done) counted.delete(oldest.value);
        counted.set(key, {
          input: Math.max(now.input, before.input),
          cached: Math.max(now.cached, before.cached),
          output: Math.max(now.output, before.output),
        });
      }
      if (delta.input + delta.output === 0) return;
      ctx.onUsage({
        provider: 'anthropic',
        ...(model && { model }),
        inputTokens: delta.input,
        cachedInputTokens: Math.min(delta.cached, delta.input),
        outputTokens: delta.output,
        costCents: 0,
        billingType: config.billingType ?? 'unknown',
      });
    } else if (obj.type === 'result') {
      result = obj;
      noteSession(obj.session_id);
      const summary = typeof obj.result === 'string' ? bounded(obj.result) : undefined;
      ctx.onResult({
        ...(summary !== undefined && { summary }),
        ...(sessionId && { sessionId }),
        ...(typeof obj.num_turns === 'number' && { numTurns: obj.num_turns }),
        ...(typeof obj.total_cost_usd === 'number' && { costUsd: obj.total_cost_usd }),
      });
      const usd = obj.total_cost_usd;
      if (typeof usd === 'number' && Number.isFinite(usd) && usd > 0) {
        ctx.onUsage({
          provider: 'anthropic',
          ...(model && { model }),
          costCents: Math.min(usdToCents(usd), 1_000_000),
          billingType: config.billingType ?? 'metered_api',
        });
      }
    }
  };
  /** The run's outcome from the process's and the stream's: a result that is an error fails the run. */
  const finish = (outcome: AdapterOutcome, stderrTail: string): { outcome: AdapterOutcome; errorText: string } => {
    const r = result as Record<string, unknown> | null;
    const resultError = r && (r.is_error === true || r.subtype !== 'success') ? resultErrorText(r) : null;
    const errorText = [resultError ?? '', stderrTail].join('\n');
    if (outcome.status === 'timed_out' || outcome.status === 'cancelled') return { outcome, errorText };
    if (resultError !== null || outcome.status === 'failed') {
      return {
        outcome: { ...outcome, status: 'failed', error: resultError ?? lastLine(stderrTail) ?? outcome.error },
        errorText,
      };
    }
    if (!r)
      return {
        outcome: {
          ...outcome,
          status: 'failed',
          error: 'claude ended without a result event: is its stream-json format still the one this adapter parses?',
        },
        errorText,
      };
    return { outcome, errorText };
  };
  return { onObject, finish };
}

function resultErrorText(result: Record<string, unknown>): string {
  const errors = Array.isArray(result.errors) ? result.errors.filter((e): e is string => typeof e === 'string') : [];
  const text =
    typeof result.result === 'string' && result.result.trim()
      ? result.result.trim()
      : errors.join('; ') || `claude reported ${String(result.subtype ?? 'an error')}`;
  return bounded(text, 4000);
}

const execute = (ctx: AdapterRunContext) =>
  executeLocalCli(ctx, {
    type: 'claude_local',
    schema: claudeConfigSchema,
    args: claudeArgs,
    stream: createClaudeStream,
    resumeRejected: CLAUDE_RESUME_REJECTED,
  });

const AGENT_CONFIGURATION_DOC = `claude_local: runs Claude Code (\`claude --print --output-format stream-json --verbose\`) per heartbeat, the wake prompt on stdin, resuming this agent's session for the issue (--resume).
adapterConfig: command (default "claude"), args (string[], after the adapter's flags), cwd, env (values may be secret references, e.g. ANTHROPIC_API_KEY),
timeoutSec, graceSec, inactivityTimeoutSec (default 300: stopped after that many seconds without new output; 0 disables), model (--model), maxTurns (--max-turns), permissionMode (--permission-mode), skillsDir (--add-dir), mcp (default true: the "boardroom" MCP server via --mcp-config; false to opt out),
billingType (how usage is paid: metered_api, subscription_included, ...; default: metered_api for the reported cost, unknown for tokens).`;

export function createServerAdapter(): ServerAdapter {
  return {
    type: 'claude_local',
    label: 'Claude Code (local)',
    models: [],
    agentConfigurationDoc: AGENT_CONFIGURATION_DOC,
    configSchema: configJsonSchema(claudeConfigSchema),
    execute,
    testEnvironment: (config) =>
      testCliEnvironment(config, {
        schema: claudeConfigSchema,
        apiKeyEnv: 'ANTHROPIC_API_KEY',
        login: claudeLoginProbe,
      }),
  };
}

// `codex_local`: a run is one Codex invocation,
//   codex exec --json --skip-git-repo-check [-c mcp_servers.boardroom.*=...] [--model m] <adapterConfig.args...> [resume <threadId>] -
// with the wake prompt on stdin ("-"), supervised like any local process (supervise.ts).
// --skip-git-repo-check: the engine may run the agent in its own workspace, which is no repository.
//
// Events parsed from stdout (one JSON object per line; anything else is only log):
// - {"type":"thread.started","thread_id"}: the session, reported at once (onSession).
// - {"type":"turn.completed","usage":{input_tokens, cached_input_tokens, output_tokens}}: usage of
//   that turn, reported as it arrives (provider openai, model from adapterConfig.model; Codex
//   reports no cost, so the server's price table prices it, if it knows the model).
// - {"type":"item.completed","item":{"type":"agent_message","text"}}: the last one is the summary.
// - {"type":"turn.failed","error":{"message"}} and {"type":"error","message"}: the failure.
// Resume rejected: with a thread to resume, a failure whose error or stderr says the
// thread/session/conversation/rollout was not found forgets it and runs once more, fresh.
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
} from './local-cli.ts';
import { codexLoginProbe } from './cli-login.ts';
import { configJsonSchema } from './config-fields.ts';
import { codexMcpArgs } from './mcp-config.ts';
import type { AdapterOutcome, AdapterRunContext, ServerAdapter } from './types.ts';

export const codexConfigSchema = z.object({ ...localCliConfigFields('codex'), mcp: mcpField });
export type CodexConfig = z.output<typeof codexConfigSchema>;

export const CODEX_RESUME_REJECTED =
  /\b(thread|session|conversation|rollout)\b[^\n]{0,120}\bnot found\b|\bno (thread|session|conversation|rollout)\b[^\n]{0,60}\bfound\b/i;

export function codexArgs(config: CodexConfig, threadId: string | null): string[] {
  const args = ['exec', '--json', '--skip-git-repo-check'];
  if (config.mcp !== false) args.push(...codexMcpArgs());
  if (config.model) args.push('--model', config.model);
  args.push(...config.args);
  if (threadId) args.push('resume', threadId);
  return [...args, '-'];
}

export function createCodexStream(
  ctx: Pick<AdapterRunContext, 'onUsage' | 'onResult' | 'onSession'>,
  config: CodexConfig,
) {
  let threadId: string | null = null;
  let summary: string | null = null;
  let completed = false;
  let turnFailed: string | null = null;
  let lastError: string | null = null;
  const onObject = (obj: Record<string, unknown>) => {
    switch (obj.type) {
      case 'thread.started': {
        const id = usableSessionId(obj.thread_id);
        if (id && id !== threadId) {
          threadId = id;
          ctx.onSession(id);
        }
        break;
      }
      case 'turn.completed': {
        completed = true;
        const usage = record(obj.usage);
        if (!usage) break;
        const input = tokens(usage.input_tokens);
        ctx.onUsage({
          provider: 'openai',
          ...(config.model && { model: config.model }),
          inputTokens: input,
          cachedInputTokens: Math.min(tokens(usage.cached_input_tokens), input),
          outputTokens: tokens(usage.output_tokens),
          billingType: config.billingType ?? 'unknown',
        });
        break;
      }
      case 'item.completed': {
        const item = record(obj.item);
        if (item?.type === 'agent_message' && typeof item.text === 'string') summary = bounded(item.text);
        break;
      }
      case 'turn.failed':
        turnFailed = bounded(String(record(obj.error)?.message ?? 'turn failed'), 4000);
        break;
      case 'error':
        lastError = bounded(String(obj.message ?? 'error'), 4000);
        break;
    }
  };
  const finish = (outcome: AdapterOutcome, stderrTail: string): { outcome: AdapterOutcome; errorText: string } => {
    if (summary !== null || threadId)
      ctx.onResult({ ...(summary !== null && { summary }), ...(threadId && { threadId }) });
    const streamError = turnFailed ?? (completed ? null : lastError);
    const errorText = [turnFailed ?? '', lastError ?? '', stderrTail].join('\n');
    if (outcome.status === 'timed_out' || outcome.status === 'cancelled') return { outcome, errorText };
    if (streamError !== null || outcome.status === 'failed') {
      return {
        outcome: {
          ...outcome,
          status: 'failed',
          error: streamError ?? lastError ?? lastLine(stderrTail) ?? outcome.error,
        },
        errorText,
      };
    }
    if (!completed)
      return {
        outcome: {
          ...outcome,
          status: 'failed',
          error: 'codex ended without a turn.completed event: is its --json format still the one this adapter parses?',
        },
        errorText,
      };
    return { outcome, errorText };
  };
  return { onObject, finish };
}

const execute = (ctx: AdapterRunContext) =>
  executeLocalCli(ctx, {
    type: 'codex_local',
    schema: codexConfigSchema,
    args: codexArgs,
    stream: createCodexStream,
    resumeRejected: CODEX_RESUME_REJECTED,
  });

const AGENT_CONFIGURATION_DOC = `codex_local: runs Codex (\`codex exec --json\`) per heartbeat, the wake prompt on stdin, resuming this agent's thread for the issue (exec resume <threadId>).
adapterConfig: command (default "codex"), args (string[], before "resume"), cwd, env (values may be secret references, e.g. OPENAI_API_KEY),
timeoutSec, graceSec, inactivityTimeoutSec (default 300: stopped after that many seconds without new output; 0 disables), model (--model), mcp (default true: the "boardroom" MCP server via -c mcp_servers.boardroom.*; false to opt out), billingType (how usage is paid; default unknown: the price table prices the tokens).`;

export function createServerAdapter(): ServerAdapter {
  return {
    type: 'codex_local',
    label: 'Codex (local)',
    models: [],
    agentConfigurationDoc: AGENT_CONFIGURATION_DOC,
    configSchema: configJsonSchema(codexConfigSchema),
    execute,
    testEnvironment: (config) =>
      testCliEnvironment(config, { schema: codexConfigSchema, apiKeyEnv: 'OPENAI_API_KEY', login: codexLoginProbe }),
  };
}

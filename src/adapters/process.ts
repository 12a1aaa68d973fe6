// The `process` adapter: a run is one local command. It gets the wake prompt on stdin and the run
// env (SERVICE_* contract), prints what it does, and may report usage and a result as JSON lines.
//
// Supervision (own process group, SIGTERM then SIGKILL after grace, the sweep of what the leader
// left behind) is supervise.ts, shared with the CLI runtime adapters.
import { z } from 'zod';
import type { AdapterOutcome, AdapterRunContext, AdapterUsage, EnvironmentCheck, ServerAdapter } from './types.ts';
import {
  checkCwd,
  createLineParser,
  failed,
  findExecutable,
  formatZodError,
  MAX_LINE_CHARS,
  superviseProcess,
} from './supervise.ts';
import { usageReport } from './usage.ts';
import { configJsonSchema, localProcessFields } from './config-fields.ts';

// Re-exported: the process adapter's structured-line parser is the shared one.
export { createLineParser, MAX_LINE_CHARS };

export const processConfigSchema = z.object({
  command: z
    .string()
    .trim()
    .min(1)
    .max(4096)
    .describe('the command to run: a name looked up on PATH, or a path (relative to cwd)'),
  args: z.array(z.string().max(65536)).max(512).default([]).describe('its arguments'),
  ...localProcessFields,
});
export type ProcessConfig = z.infer<typeof processConfigSchema>;

const usageLine = usageReport.extend({ type: z.literal('usage') });

function dispatchStructured(ctx: AdapterRunContext, obj: Record<string, unknown>): void {
  if (obj.type === 'usage') {
    const parsed = usageLine.safeParse(obj);
    if (parsed.success) {
      const { type: _type, ...usage } = parsed.data;
      ctx.onUsage(usage satisfies AdapterUsage);
    }
  } else if (obj.type === 'result') {
    const { type: _type, ...result } = obj;
    if (result.summary !== undefined && typeof result.summary !== 'string') return;
    ctx.onResult(result as { summary?: string });
  }
}

async function execute(ctx: AdapterRunContext): Promise<AdapterOutcome> {
  const config = processConfigSchema.safeParse(ctx.agent.adapterConfig);
  if (!config.success)
    return failed('adapter_config_invalid', `invalid process adapter config: ${formatZodError(config.error)}`);
  const { outcome } = await superviseProcess(ctx, {
    command: config.data.command,
    args: config.data.args,
    onObject: (obj) => dispatchStructured(ctx, obj),
  });
  return outcome;
}

async function testEnvironment(raw: Record<string, unknown>): Promise<EnvironmentCheck> {
  const parsed = processConfigSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, checks: [{ name: 'config', ok: false, detail: formatZodError(parsed.error) }] };
  }
  const config = parsed.data;
  const checks: EnvironmentCheck['checks'] = [{ name: 'config', ok: true, detail: 'valid' }];
  const configuredPath = config.env?.PATH;
  const envPath = typeof configuredPath === 'string' ? configuredPath : process.env.PATH;
  const found = await findExecutable(config.command, config.cwd, envPath);
  checks.push({
    name: 'command',
    ok: found !== null,
    detail: found ? `found at ${found}` : `${config.command} not found or not executable`,
  });
  checks.push(await checkCwd(config.cwd));
  return { ok: checks.every((c) => c.ok), checks };
}

const AGENT_CONFIGURATION_DOC = `process: runs a local command per heartbeat.
adapterConfig: command (required), args (string[]), cwd, env (values may be secret references),
timeoutSec, graceSec. The wake prompt arrives on stdin; the SERVICE_* env describes the run.
Print {"type":"usage",provider,model,inputTokens,cachedInputTokens,outputTokens,costCents,billingType}
and {"type":"result","summary":"..."} as single JSON lines on stdout; everything else is log.`;

/** Package-style factory: the registry loads built-ins exactly as it loads external adapters. */
export function createServerAdapter(): ServerAdapter {
  return {
    type: 'process',
    label: 'Local process',
    models: [],
    agentConfigurationDoc: AGENT_CONFIGURATION_DOC,
    configSchema: configJsonSchema(processConfigSchema),
    execute,
    testEnvironment,
  };
}

// How claude_local and codex_local hand the agent `boardroom mcp` (src/mcp): the CLI starts it
// as an MCP server named `boardroom` on stdio. The run's credentials are never written into an
// argument (visible to every user in `ps`): each CLI forwards them from its own environment.
import { CLI_BIN } from '../paths.ts';

export const MCP_SERVER_NAME = 'boardroom';
/** The run-env keys the MCP server reads: set for every run (run-env.ts), SERVICE_TASK_ID when the run is about an issue. */
const FORWARDED_ENV = [
  'SERVICE_API_URL',
  'SERVICE_API_KEY',
  'SERVICE_RUN_ID',
  'SERVICE_AGENT_ID',
  'SERVICE_COMPANY_ID',
  'SERVICE_TASK_ID',
] as const;
const OPTIONAL_ENV = new Set<string>(['SERVICE_TASK_ID']);

/**
 * Claude Code: --mcp-config with inline JSON; it expands `${VAR}` in `env` from its own environment
 * (`${VAR:-}` for one that may be unset, which it would otherwise refuse).
 */
export function claudeMcpArgs(): string[] {
  const env = Object.fromEntries(
    FORWARDED_ENV.map((key) => [key, OPTIONAL_ENV.has(key) ? `\${${key}:-}` : `\${${key}}`]),
  );
  const config = {
    mcpServers: { [MCP_SERVER_NAME]: { type: 'stdio', command: process.execPath, args: [CLI_BIN, 'mcp'], env } },
  };
  return ['--mcp-config', JSON.stringify(config)];
}

/** Codex: `-c` config overrides (TOML values); `env_vars` forwards the named variables from its environment. */
export function codexMcpArgs(): string[] {
  // A JSON string or array of strings is a valid TOML basic string or array.
  const set = (field: string, value: unknown) => [
    '-c',
    `mcp_servers.${MCP_SERVER_NAME}.${field}=${JSON.stringify(value)}`,
  ];
  return [...set('command', process.execPath), ...set('args', [CLI_BIN, 'mcp']), ...set('env_vars', FORWARDED_ENV)];
}

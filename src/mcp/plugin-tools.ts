// Plugin tools in `boardroom mcp` (issue 27 section 4): the tools of the plugins the agent's company
// enabled (GET /api/plugins/tools), each executed as this agent in this run through
// POST /api/plugins/tools/execute, where the host checks the context and the parameters. Listed
// once when the server starts: a plugin enabled later reaches agents at their next run.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ApiClient } from './client.ts';
import type { PluginTool } from '../modules/plugins/surfaces.ts';
import { toolResult } from './tools.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What model APIs accept as a tool name; the built-in tools never contain `__`, so these never collide with them. */
const MAX_NAME = 64;

/** `<plugin key>__<tool>`, the key's dots made underscores; the plugin id's start instead when that is too long. */
export function mcpToolName(tool: Pick<PluginTool, 'pluginKey' | 'pluginId' | 'name'>): string {
  const full = `${tool.pluginKey.replace(/[^A-Za-z0-9_-]/g, '_')}__${tool.name}`;
  return full.length <= MAX_NAME ? full : `${tool.pluginId.slice(0, 8)}__${tool.name}`.slice(0, MAX_NAME);
}

/** The tool's input schema as the MCP server lists and checks it; any object when the SDK cannot read it. */
function inputSchemaOf(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    // The API checks the parameters against the schema anyway (422).
    return z.looseObject({});
  }
}

export async function registerPluginTools(
  server: McpServer,
  api: ApiClient,
  note: (line: string) => void,
): Promise<void> {
  const self = await api.self();
  if ('ok' in self) return note(`plugin tools not listed: ${self.error}`);
  const listed = await api.request('GET', `/api/plugins/tools?companyId=${encodeURIComponent(self.companyId)}`);
  if (!listed.ok) return note(`plugin tools not listed: HTTP ${listed.status}: ${listed.error}`);
  for (const tool of listed.body as PluginTool[]) {
    const name = mcpToolName(tool);
    try {
      server.registerTool(
        name,
        {
          description: `${tool.description} (plugin ${tool.pluginKey}; ${tool.effect === 'write' ? 'changes things' : 'reads only'})`,
          inputSchema: inputSchemaOf(tool.inputSchema),
        },
        async (parameters: unknown) =>
          toolResult(
            await api.request('POST', '/api/plugins/tools/execute', {
              tool: tool.tool,
              parameters,
              // The run is the caller's own (its run-id header): the API takes it from there.
              runContext: {
                companyId: self.companyId,
                agentId: self.agentId,
                ...(api.taskId && UUID.test(api.taskId) && { issueId: api.taskId }),
              },
            }),
          ),
      );
    } catch (err) {
      note(`plugin tool ${tool.tool} not offered as ${name}: ${(err as Error).message}`);
    }
  }
}

// `boardroom mcp`: a Model Context Protocol server on stdio whose tools are the run's API
// (./tools.ts) and the plugin tools of its company (./plugin-tools.ts), called with the run's SERVICE_API_KEY and SERVICE_RUN_ID (./client.ts).
// stdout belongs to the protocol: anything for people goes to stderr.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { VERSION } from '../paths.ts';
import { createApiClient, readMcpEnv } from './client.ts';
import { registerPluginTools } from './plugin-tools.ts';
import { registerTools } from './tools.ts';

export async function runMcpServer(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const read = readMcpEnv(env);
  if ('missing' in read) {
    throw new Error(
      `mcp needs the run's environment: ${read.missing.join(', ')} ${read.missing.length === 1 ? 'is' : 'are'} not set (the engine sets them for every run)`,
    );
  }
  const server = new McpServer({ name: 'boardroom', version: VERSION });
  const api = createApiClient(read);
  registerTools(server, api);
  await registerPluginTools(server, api, (line) => process.stderr.write(`boardroom mcp: ${line}\n`));
  await server.connect(new StdioServerTransport());
}

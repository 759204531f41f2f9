import type { McpServer } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import {
  McpServerConfigSchema,
  McpServerNameSchema,
  type McpServersConfig,
} from '../../infrastructure/mcp/mcp-server-config.js';

/**
 * The MCP servers an ACP client brings to a session, as correx's own configuration would name
 * them: the same schema, so the same defaults (tier T2 for unannotated tools, timeouts, result
 * caps) and, once the session starts, the same sandbox, policy and approval rules. Names are
 * made into correx's server names (`[a-z0-9_-]`, at most 32); stdio and HTTP are taken, SSE is
 * refused with a named error.
 */
export function clientMcpServers(servers: readonly McpServer[]): McpServersConfig {
  const config: Record<string, ReturnType<typeof McpServerConfigSchema.parse>> = {};
  for (const server of servers) {
    const name = serverName(server.name);
    if (!McpServerNameSchema.safeParse(name).success || name in config)
      throw RequestError.invalidParams(
        { mcpServer: server.name },
        `the MCP server name "${server.name}" cannot be told apart from another once made into correx's [a-z0-9_-] names`,
      );
    if ('type' in server && server.type === 'sse')
      throw RequestError.invalidParams(
        { mcpServer: server.name },
        `MCP server "${server.name}": correx speaks MCP over stdio and HTTP, not SSE`,
      );
    const parsed =
      'type' in server && server.type === 'http'
        ? McpServerConfigSchema.safeParse({
            url: server.url,
            headers: Object.fromEntries(
              server.headers.map((header) => [header.name, header.value]),
            ),
          })
        : McpServerConfigSchema.safeParse({
            command: (server as { command: string }).command,
            args: (server as { args: string[] }).args,
            env: Object.fromEntries(
              (server as { env: { name: string; value: string }[] }).env.map((variable) => [
                variable.name,
                variable.value,
              ]),
            ),
          });
    if (!parsed.success)
      throw RequestError.invalidParams(
        { mcpServer: server.name },
        `MCP server "${server.name}": ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
      );
    config[name] = parsed.data;
  }
  return config;
}

function serverName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 32);
}

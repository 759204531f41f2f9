import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from './mcp-connection.js';
import { McpError } from './mcp-errors.js';
import { mcpToolName } from './mcp-tool-definition.js';

/** A tool correx offers for a server: one it lists, or one of the two standing for its resources. */
export type McpListedTool = {
  readonly tool: Tool;
  readonly resource?: 'list' | 'read';
};

/** The two read-only tools a server's resources are offered through (MCP has no tool for them). */
export const RESOURCE_TOOLS: readonly McpListedTool[] = [
  {
    resource: 'list',
    tool: {
      name: 'resources_list',
      description: "Lists the server's resources (URI, name, type); pass cursor for the next page.",
      inputSchema: { type: 'object', properties: { cursor: { type: 'string' } } },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  },
  {
    resource: 'read',
    tool: {
      name: 'resources_read',
      description: 'Reads one of the server resources by its URI.',
      inputSchema: {
        type: 'object',
        properties: { uri: { type: 'string' } },
        required: ['uri'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  },
];

/**
 * Everything a connected server offers as tools: its own, then its resources' two if it has any
 * (unless one of its own is offered under that name). Two of its own tools offered under one
 * name (`a.b` and `a_b` both become `mcp__<server>__a_b`) would be assessed as one and run as
 * the other, so such a server is refused when it connects, naming both.
 */
export async function listOfferedTools(
  connection: McpConnection,
  timeoutMs: number,
): Promise<McpListedTool[]> {
  const server = connection.server;
  const own = (await connection.listTools(timeoutMs)).map((tool) => ({ tool }));
  const byName = new Map<string, string>();
  for (const { tool } of own) {
    const offered = mcpToolName(server, tool.name);
    const other = byName.get(offered);
    if (other !== undefined)
      throw new McpError(
        'mcp_tool_name_collision',
        `MCP server ${server} lists two tools that would both be offered as ${offered}: ${JSON.stringify(other)} and ${JSON.stringify(tool.name)}; rename one of them on the server`,
      );
    byName.set(offered, tool.name);
  }
  const resources = connection.offersResources
    ? RESOURCE_TOOLS.filter((entry) => !byName.has(mcpToolName(server, entry.tool.name)))
    : [];
  return [...own, ...resources];
}

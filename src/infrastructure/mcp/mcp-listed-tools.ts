import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from './mcp-connection.js';

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

/** Everything a connected server offers as tools: its own, then its resources' two if it has any. */
export async function listOfferedTools(
  connection: McpConnection,
  timeoutMs: number,
): Promise<McpListedTool[]> {
  const own = (await connection.listTools(timeoutMs)).map((tool) => ({ tool }));
  const taken = new Set(own.map((entry) => entry.tool.name));
  const resources = connection.offersResources
    ? RESOURCE_TOOLS.filter((entry) => !taken.has(entry.tool.name))
    : [];
  return [...own, ...resources];
}

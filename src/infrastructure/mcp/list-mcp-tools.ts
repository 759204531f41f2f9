import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../../core/tools/tool-contract.js';
import type { McpConfinement, McpConnection, McpConnectOptions } from './mcp-connection.js';
import { McpError } from './mcp-errors.js';
import type { McpServersConfig } from './mcp-server-config.js';
import { listOfferedTools } from './mcp-listed-tools.js';
import { mcpToolDefinition } from './mcp-tool-definition.js';

/** One configured server as listed: its tools, or why it could not be listed. */
export type McpServerListing =
  | {
      readonly server: string;
      readonly ok: true;
      readonly serverInfo: { readonly name: string; readonly version: string };
      readonly confinement: McpConfinement;
      readonly listed: readonly Tool[];
      readonly tools: readonly ToolDefinition[];
    }
  | { readonly server: string; readonly ok: false; readonly error: string };

/**
 * Starts every configured server, lists its tools and stops it again: what a new session
 * records (the tools become part of `session_configured`, with each one's digest) and what
 * `correx mcp list` shows. A server that fails to start is reported, not fatal.
 */
export async function listMcpTools(
  servers: McpServersConfig,
  options: Omit<McpConnectOptions, 'server' | 'config'>,
): Promise<McpServerListing[]> {
  const names = Object.keys(servers).sort();
  if (names.length === 0) return [];
  // The SDK is loaded only when a server is configured (it costs every CLI start otherwise).
  const { McpConnection } = await import('./mcp-connection.js');
  return Promise.all(
    names.map(async (server): Promise<McpServerListing> => {
      const config = servers[server]!;
      let connection: McpConnection | undefined;
      try {
        connection = await McpConnection.open({ ...options, server, config });
        const offered = await listOfferedTools(connection, config.startupTimeoutMs);
        const listed = offered.map((entry) => entry.tool);
        return {
          server,
          ok: true,
          serverInfo: connection.serverInfo,
          confinement: connection.confinement,
          listed,
          tools: listed.map((tool) => mcpToolDefinition(server, tool, config.defaultTier)),
        };
      } catch (error) {
        const message =
          error instanceof McpError
            ? `${error.failure}: ${error.message}`
            : error instanceof Error
              ? error.message
              : String(error);
        return { server, ok: false, error: message };
      } finally {
        await connection?.close();
      }
    }),
  );
}

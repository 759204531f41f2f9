import { requireTrustedWorkspace } from '../infrastructure/config/workspace-trust.js';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { loadHarnessConfig } from '../infrastructure/config/load-harness-config.js';
import type { McpServerListing } from '../infrastructure/mcp/list-mcp-tools.js';
import { createMcpToolSource } from '../infrastructure/mcp/mcp-tool-source.js';
import { detectSandbox } from '../infrastructure/sandbox/sandbox-availability.js';
import { defaultSearchPath } from '../infrastructure/system/default-search-path.js';

/**
 * The configured MCP servers as a session in `workspace` would see them: started under this
 * machine's sandbox with the workspace's policy, listed, and stopped.
 */
export async function listConfiguredMcpServers(options: {
  readonly correxHome: string;
  readonly workspace: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}): Promise<McpServerListing[]> {
  const workspace = realpathSync(options.workspace);
  const harness = await loadHarnessConfig({ correxHome: options.correxHome, workspace });
  requireTrustedWorkspace(options.correxHome, harness);
  if (Object.keys(harness.mcpServers).length === 0) return [];
  const source = createMcpToolSource({
    homeDirectory: realpathSync(homedir()),
    hiddenPaths: [options.correxHome],
    availability: await detectSandbox(),
    searchPath: defaultSearchPath(),
    env: options.env,
  });
  return source.list(harness.mcpServers, workspace, harness.policy);
}

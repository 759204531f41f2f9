import type { WorkspacePolicy } from '../../core/policies/workspace-policy.js';
import type { SandboxAvailability } from '../sandbox/sandbox-availability.js';
import type { SandboxSettings } from '../sandbox/confined-process.js';
import type { PreimageStore } from '../sandbox/preimage-store.js';
import { listMcpTools, type McpServerListing } from './list-mcp-tools.js';
import type { McpServersConfig } from './mcp-server-config.js';
import { createMcpToolRunner, type ClosableToolRunner } from './mcp-tool-runner.js';

export type McpToolSourceOptions = {
  readonly homeDirectory: string;
  /** correx's home and store: hidden from every server process. */
  readonly hiddenPaths: readonly string[];
  readonly availability: SandboxAvailability;
  readonly searchPath: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where the change records of MCP calls keep pre-images, as exec's do (none: hashes only). */
  readonly preimages?: PreimageStore;
};

/**
 * How a host reaches the configured MCP servers of one workspace: listing their tools for a new
 * session, and the runner a live session calls them through, both confined the same way as the
 * session's commands (the policy's protected paths read-only, correx's files hidden).
 */
export type McpToolSource = {
  list(
    servers: McpServersConfig,
    workspace: string,
    policy: WorkspacePolicy,
  ): Promise<McpServerListing[]>;
  runner(servers: McpServersConfig, workspace: string, policy: WorkspacePolicy): ClosableToolRunner;
};

export function createMcpToolSource(options: McpToolSourceOptions): McpToolSource {
  const connectOptions = (workspace: string, policy: WorkspacePolicy) => {
    const sandbox: SandboxSettings = {
      availability: options.availability,
      neverWritable: policy.neverWritable,
      hiddenPaths: options.hiddenPaths,
      readablePaths: policy.sandboxReadablePaths ?? [],
    };
    return {
      env: options.env,
      workspaceRoot: workspace,
      homeDirectory: options.homeDirectory,
      sandbox,
      searchPath: options.searchPath,
    };
  };
  return {
    list: (servers, workspace, policy) => listMcpTools(servers, connectOptions(workspace, policy)),
    runner: (servers, workspace, policy) =>
      createMcpToolRunner({
        ...connectOptions(workspace, policy),
        servers,
        ...(options.preimages === undefined ? {} : { preimages: options.preimages }),
      }),
  };
}

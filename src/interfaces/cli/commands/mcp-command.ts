import { resolve } from 'node:path';
import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import type { McpServerListing } from '../../../infrastructure/mcp/list-mcp-tools.js';
import type { CommandContext } from '../cli-context.js';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * `correx mcp`: correx as an MCP server on stdio (docs/mcp.md); `correx mcp list`: the
 * configured MCP servers, how they run, their tools and tiers.
 */
export function mcpCommand(context: CommandContext): Command {
  const mcp = new Command('mcp')
    .description(
      'serve correx as an MCP server on stdio (start sessions, read status, diff, events; undo; verify); `mcp list`: the MCP servers harness.yaml configures',
    )
    .option(
      '--allow-root <dir>',
      'a folder sessions started over MCP may work in (repeatable; default: the current folder)',
      collect,
    )
    .action(async (options: { allowRoot?: string[] }, command: Command) => {
      // Loaded only here: `mcp list` needs no server.
      const { serveMcp } = await import('../../mcp-server/serve-mcp.js');
      await serveMcp(context, {
        location: (command.optsWithGlobals() as { store?: string }).store ?? context.defaultStore,
        allowRoots: options.allowRoot ?? [context.cwd],
      });
    });
  mcp
    .command('list')
    .description('start each configured MCP server, list its tools with their tiers, stop it')
    .option('--workspace <dir>', 'the workspace the servers would run in', context.cwd)
    .option('--json', 'print the listing as JSON')
    .action(async (options: { workspace: string; json?: boolean }) => {
      if (context.listMcpServers === undefined)
        throw new CorrexError('usage', 'this correx cannot start MCP servers');
      const listings = await context.listMcpServers(resolve(options.workspace));
      if (options.json === true) context.out(JSON.stringify(listings.map(describe), null, 2));
      else if (listings.length === 0)
        context.out('no MCP servers are configured (add mcpServers: to $CORREX_HOME/harness.yaml)');
      else for (const line of listings.flatMap(lines)) context.out(line);
      if (listings.some((listing) => !listing.ok)) context.fail(1);
    });
  return mcp;
}

function describe(listing: McpServerListing) {
  if (!listing.ok) return { server: listing.server, ok: false, error: listing.error };
  return {
    server: listing.server,
    ok: true,
    serverInfo: listing.serverInfo,
    confinement: listing.confinement,
    tools: listing.tools.map((tool) => ({
      name: tool.name,
      tier: tool.defaultTier,
      capabilities: tool.capabilities,
      digest: tool.source?.digest,
    })),
  };
}

function lines(listing: McpServerListing): string[] {
  if (!listing.ok) return [`${listing.server}: not available (${listing.error})`];
  const { name, version } = listing.serverInfo;
  return [
    `${listing.server}: ${name} ${version}, ${listing.confinement === 'none' ? 'UNSANDBOXED' : listing.confinement}, ${listing.tools.length} tool(s)`,
    ...listing.tools.map(
      (tool) =>
        `  ${tool.name}  ${tool.defaultTier}  ${tool.capabilities.includes('READ_ONLY') ? 'read-only' : 'may change things'}`,
    ),
  ];
}

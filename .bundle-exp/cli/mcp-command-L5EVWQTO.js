import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/mcp-command.ts
import { resolve } from "node:path";
import { Command } from "commander";
var collect = (value, previous) => [...previous ?? [], value];
function mcpCommand(context) {
  const mcp = new Command("mcp").description(
    "serve correx as an MCP server on stdio (start sessions, read status, diff, events; undo; verify); `mcp list`: the MCP servers harness.yaml configures"
  ).option(
    "--allow-root <dir>",
    "a folder sessions started over MCP may work in (repeatable; default: the current folder)",
    collect
  ).action(async (options, command) => {
    const { serveMcp } = await import("./serve-mcp-YTQOYQDB.js");
    await serveMcp(context, {
      location: command.optsWithGlobals().store ?? context.defaultStore,
      allowRoots: options.allowRoot ?? [context.cwd]
    });
  });
  mcp.command("list").description("start each configured MCP server, list its tools with their tiers, stop it").option("--workspace <dir>", "the workspace the servers would run in", context.cwd).option("--json", "print the listing as JSON").action(async (options) => {
    if (context.listMcpServers === void 0)
      throw new CorrexError("usage", "this correx cannot start MCP servers");
    const listings = await context.listMcpServers(resolve(options.workspace));
    if (options.json === true) context.out(JSON.stringify(listings.map(describe), null, 2));
    else if (listings.length === 0)
      context.out("no MCP servers are configured (add mcpServers: to $CORREX_HOME/harness.yaml)");
    else for (const line of listings.flatMap(lines)) context.out(line);
    if (listings.some((listing) => !listing.ok)) context.fail(1);
  });
  return mcp;
}
function describe(listing) {
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
      digest: tool.source?.digest
    }))
  };
}
function lines(listing) {
  if (!listing.ok) return [`${listing.server}: not available (${listing.error})`];
  const { name, version } = listing.serverInfo;
  return [
    `${listing.server}: ${name} ${version}, ${listing.confinement === "none" ? "UNSANDBOXED" : listing.confinement}, ${listing.tools.length} tool(s)`,
    ...listing.tools.map(
      (tool) => `  ${tool.name}  ${tool.defaultTier}  ${tool.capabilities.includes("READ_ONLY") ? "read-only" : "may change things"}`
    )
  ];
}
export {
  mcpCommand
};

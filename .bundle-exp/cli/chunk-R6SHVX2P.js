// src/infrastructure/mcp/mcp-server-config.ts
import { z } from "zod";
var EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name such as GITHUB_TOKEN");
var commonFields = {
  /**
   * The tier of a tool that declares no annotations (a hint a server gives, not a fact):
   * T2 by default, T3 for a server you trust less.
   */
  defaultTier: z.enum(["T2", "T3"]).default("T2"),
  /** How long one call may run before it is abandoned as hung. */
  timeoutMs: z.number().int().min(100).max(36e5).default(6e4),
  /** How long starting the server and listing its tools may take. */
  startupTimeoutMs: z.number().int().min(100).max(6e5).default(3e4),
  /** The largest result (in bytes of text) a call may return; a larger one is refused. */
  maxResultBytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  /**
   * The stages offered the server's tools. Absent: read-tier tools in every stage, the others
   * in the stages that may write files or run commands.
   */
  stages: z.array(z.string().min(1)).optional()
};
var StdioMcpServerConfigSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(EnvNameSchema, z.string()).default({}),
  passEnv: z.array(EnvNameSchema).default([]),
  /** Hosts the server may reach through correx's egress proxy when sandboxed; none by default. */
  egress: z.array(z.string().min(1)).default([]),
  ...commonFields
});
var HttpMcpServerConfigSchema = z.strictObject({
  url: z.url(),
  headers: z.record(z.string().min(1), z.string()).default({}),
  ...commonFields
});
var McpServerConfigSchema = z.union([
  StdioMcpServerConfigSchema,
  HttpMcpServerConfigSchema
]);
var McpServerNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "MCP server names are lowercase [a-z0-9_-], at most 32");
var McpServersConfigSchema = z.record(McpServerNameSchema, McpServerConfigSchema);
function isStdioServer(config) {
  return "command" in config;
}

export {
  McpServersConfigSchema,
  isStdioServer
};

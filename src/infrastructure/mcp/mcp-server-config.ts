import { z } from 'zod';

const EnvNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name such as GITHUB_TOKEN');

/** What every MCP server may be given besides how to reach it. */
const commonFields = {
  /**
   * The tier of a tool that declares no annotations (a hint a server gives, not a fact):
   * T2 by default, T3 for a server you trust less.
   */
  defaultTier: z.enum(['T2', 'T3']).default('T2'),
  /** How long one call may run before it is abandoned as hung. */
  timeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
  /** How long starting the server and listing its tools may take. */
  startupTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  /** The largest result (in bytes of text) a call may return; a larger one is refused. */
  maxResultBytes: z
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /**
   * The stages offered the server's tools. Absent: read-tier tools in every stage, the others
   * in the stages that may write files or run commands.
   */
  stages: z.array(z.string().min(1)).optional(),
};

/**
 * A server correx starts and talks to over standard input and output, in the shape other MCP
 * clients use. `env` values may name a variable of correx's own environment as `${NAME}` (a
 * secret is taken from there and never written into an event); `passEnv` lists variables passed
 * through unchanged. Nothing else of correx's environment reaches the server.
 */
export const StdioMcpServerConfigSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(EnvNameSchema, z.string()).default({}),
  passEnv: z.array(EnvNameSchema).default([]),
  /** Hosts the server may reach through correx's egress proxy when sandboxed; none by default. */
  egress: z.array(z.string().min(1)).default([]),
  ...commonFields,
});
export type StdioMcpServerConfig = z.infer<typeof StdioMcpServerConfigSchema>;

/** A server reached over Streamable HTTP; header values may name `${ENV_VAR}`s for secrets. */
export const HttpMcpServerConfigSchema = z.strictObject({
  url: z.url(),
  headers: z.record(z.string().min(1), z.string()).default({}),
  ...commonFields,
});
export type HttpMcpServerConfig = z.infer<typeof HttpMcpServerConfigSchema>;

export const McpServerConfigSchema = z.union([
  StdioMcpServerConfigSchema,
  HttpMcpServerConfigSchema,
]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** Server names become part of tool names, so they are kept to what every provider accepts. */
export const McpServerNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'MCP server names are lowercase [a-z0-9_-], at most 32');

export const McpServersConfigSchema = z.record(McpServerNameSchema, McpServerConfigSchema);
export type McpServersConfig = z.infer<typeof McpServersConfigSchema>;

export function isStdioServer(config: McpServerConfig): config is StdioMcpServerConfig {
  return 'command' in config;
}

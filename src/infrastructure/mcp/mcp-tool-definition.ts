import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { maxTier, type ApprovalTier } from '../../core/approvals/approval-tier.js';
import { canonicalJson } from '../../core/events/canonical-json.js';
import { toolFromRecord, type RecordedTool } from '../../core/kernel/index.js';
import type { ToolCapability, ToolDefinition } from '../../core/tools/tool-contract.js';
import { nodeSha256 } from '../system/node-sha256.js';

const MAX_TOOL_NAME = 64;
const MAX_DESCRIPTION = 2000;

/**
 * The name a model sees for a server's tool: `mcp__<server>__<tool>`, kept to the characters
 * and length every provider accepts (a long one ends in a digest so two never collide).
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${nodeSha256(name).slice(0, 8)}`;
}

/**
 * The digest of a tool as the server lists it (name, description, schemas, annotations): what
 * a session records, and what a later listing is compared with to catch a changed schema.
 */
export function mcpToolDigest(tool: Tool): string {
  return nodeSha256(
    canonicalJson({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema ?? null,
      annotations: tool.annotations ?? null,
    }),
  );
}

export type McpTierAssignment = {
  readonly tier: ApprovalTier;
  readonly capabilities: readonly ToolCapability[];
};

/**
 * The plane-2 tier of an MCP tool from its annotations, which are a server's hints, so a
 * contradiction takes the stricter reading: read-only (and not destructive) is the read tier
 * T0; destructive, or not read-only with no `destructiveHint` (the MCP default is destructive),
 * is T3; `openWorldHint` raises to T3 (it reaches outside, like network access). A tool with no
 * annotations at all gets the server's configured default (T2 or T3). Path and URL arguments
 * are judged by the rules whatever the tier.
 */
export function mcpToolTier(tool: Tool, defaultTier: 'T2' | 'T3'): McpTierAssignment {
  const hints = tool.annotations;
  if (hints === undefined) return { tier: defaultTier, capabilities: ['WRITES_FILES'] };
  const readOnly = hints.readOnlyHint === true && hints.destructiveHint !== true;
  let tier: ApprovalTier = readOnly ? 'T0' : hints.destructiveHint === false ? defaultTier : 'T3';
  if (hints.openWorldHint === true) tier = maxTier(tier, 'T3');
  return { tier, capabilities: readOnly ? ['READ_ONLY'] : ['WRITES_FILES'] };
}

/**
 * A listed MCP tool as correx records it. It declares no parameter roles, so the assessor
 * sniffs every path-like and URL-like string argument (resolved, contained, checked against
 * the egress allowlist) instead of trusting the server to say which arguments are paths.
 */
export function recordMcpTool(server: string, tool: Tool, defaultTier: 'T2' | 'T3'): RecordedTool {
  const { tier, capabilities } = mcpToolTier(tool, defaultTier);
  const description = `[MCP server ${server}] ${tool.title ?? ''}${tool.title ? ': ' : ''}${tool.description ?? tool.name}`;
  return {
    name: mcpToolName(server, tool.name),
    description: description.slice(0, MAX_DESCRIPTION),
    inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)) as RecordedTool['inputSchema'],
    paramRoles: {},
    capabilities: [...capabilities],
    defaultTier: tier,
    source: { kind: 'mcp', id: server, digest: mcpToolDigest(tool) },
  };
}

/** The tool definition of a listed MCP tool (its arguments checked by the server's own schema). */
export function mcpToolDefinition(
  server: string,
  tool: Tool,
  defaultTier: 'T2' | 'T3',
): ToolDefinition {
  return toolFromRecord(recordMcpTool(server, tool, defaultTier));
}

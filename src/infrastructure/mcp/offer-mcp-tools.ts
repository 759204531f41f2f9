import { builtinTools } from '../../core/tools/builtin-tools.js';
import {
  hasCapability,
  isMutatingTool,
  type ToolDefinition,
} from '../../core/tools/tool-contract.js';
import { parseWorkflow, type Workflow } from '../../core/transitions/workflow.js';
import type { McpServersConfig } from './mcp-server-config.js';

/** The built-in tools that write files or run commands (read from their capabilities). */
const MUTATING_BUILTINS = builtinTools.filter(isMutatingTool).map((tool) => tool.name);

/**
 * The workflow with each MCP tool granted to the stages that may use it: a server's `stages`
 * when configured; otherwise read-only tools in every stage that calls tools, and the others
 * only in stages already allowed to write files or run commands. The session records the
 * resulting workflow, so replay offers exactly the same tools.
 */
export function offerMcpTools(
  workflow: Workflow,
  tools: readonly ToolDefinition[],
  servers: McpServersConfig,
): Workflow {
  const mcpTools = tools.filter((tool) => tool.source?.kind === 'mcp');
  if (mcpTools.length === 0) return workflow;
  const definition = structuredClone(workflow.definition);
  for (const stage of definition.stages) {
    if (stage.subagent !== undefined) continue;
    const callsTools = stage.allowedTools.length > 0;
    const mutating = stage.allowedTools.some((name) => MUTATING_BUILTINS.includes(name));
    for (const tool of mcpTools) {
      const chosen = servers[tool.source!.id]?.stages;
      const offered =
        chosen !== undefined
          ? chosen.includes(stage.id)
          : callsTools && (hasCapability(tool, 'READ_ONLY') || mutating);
      if (offered && !stage.allowedTools.includes(tool.name)) stage.allowedTools.push(tool.name);
    }
  }
  return parseWorkflow(definition, { source: `${workflow.id} with MCP tools` });
}

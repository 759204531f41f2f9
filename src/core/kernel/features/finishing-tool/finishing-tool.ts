import type { ToolDefinition } from '../../../inference/inference-request.js';
import type { WorkflowStage } from '../../../transitions/workflow.js';

/** `finish_<artifact kind>`, with anything a tool name may not hold replaced by `_`. */
export function finishingToolName(stage: WorkflowStage): string {
  return `finish_${stage.artifact.kind}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/**
 * The tool a stage ends with (behind `finishing-tool`): its parameters are the artifact's JSON
 * Schema, so a tool-calling model, or a server constraining calls by grammar, produces a result
 * the schema phase of validation can accept. correx never runs it: the call is the answer.
 */
export function finishingToolDefinition(stage: WorkflowStage): ToolDefinition {
  return {
    name: finishingToolName(stage),
    description: `Finish stage ${stage.id}: call this once, alone, with the ${stage.artifact.kind} artifact as the arguments. The call ends your turn; the artifact is then validated.`,
    inputSchema: stage.artifact.schema,
  };
}

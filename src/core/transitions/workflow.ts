import { z } from 'zod';
import { InvalidWorkflowError } from './invalid-workflow-error.js';
import {
  WorkflowDefinitionSchema,
  type StageDefinition,
  type WorkflowDefinition,
} from './workflow-definition.js';
import { findGraphIssues, type WorkflowIssue } from './workflow-graph.js';

/** A stage with its artifact schema compiled to a validator. */
export type WorkflowStage = StageDefinition & {
  /** Validates an artifact's content; built from `artifact.schema` (JSON Schema). */
  readonly artifactSchema: z.ZodType;
};

/** A workflow that passed the schema and every graph check. Build one with `parseWorkflow`. */
export type Workflow = {
  readonly id: string;
  readonly definition: WorkflowDefinition;
  readonly initialStage: string;
  readonly stages: ReadonlyMap<string, WorkflowStage>;
};

export type ParseWorkflowOptions = {
  /** Names the definition in messages: a file path, or `defaultCodingWorkflow`. */
  readonly source?: string;
};

export type SafeParseWorkflowResult =
  | { readonly success: true; readonly workflow: Workflow }
  | { readonly success: false; readonly error: InvalidWorkflowError };

/** Validates a definition (schema, artifact schemas, graph) and compiles it; throws `InvalidWorkflowError`. */
export function parseWorkflow(input: unknown, options: ParseWorkflowOptions = {}): Workflow {
  const result = safeParseWorkflow(input, options);
  if (!result.success) throw result.error;
  return result.workflow;
}

/** Like `parseWorkflow`, but returns the error instead of throwing it. */
export function safeParseWorkflow(
  input: unknown,
  options: ParseWorkflowOptions = {},
): SafeParseWorkflowResult {
  const source = options.source ?? 'definition';
  const parsed = WorkflowDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => shapeIssue(input, issue));
    return { success: false, error: new InvalidWorkflowError(source, issues) };
  }
  const definition = parsed.data;
  const issues: WorkflowIssue[] = findGraphIssues(definition);
  const stages = new Map<string, WorkflowStage>();
  definition.stages.forEach((stage, index) => {
    try {
      const artifactSchema = z.fromJSONSchema(
        stage.artifact.schema as Parameters<typeof z.fromJSONSchema>[0],
      );
      if (!stages.has(stage.id)) stages.set(stage.id, { ...stage, artifactSchema });
    } catch (error) {
      issues.push({
        code: 'invalid_artifact_schema',
        stageId: stage.id,
        path: ['stages', index, 'artifact', 'schema'],
        message: `stage \`${stage.id}\`: artifact schema is not a usable JSON Schema: ${(error as Error).message}`,
      });
    }
  });
  if (issues.length > 0) return { success: false, error: new InvalidWorkflowError(source, issues) };
  return {
    success: true,
    workflow: { id: definition.id, definition, initialStage: definition.initialStage, stages },
  };
}

/** Turns a zod issue into a workflow issue that names the stage it sits in. */
function shapeIssue(input: unknown, issue: z.core.$ZodIssue): WorkflowIssue {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  const stageId = stageIdAt(input, path);
  const where = path.length ? formatPath(path) : 'workflow';
  const prefix = stageId ? `stage \`${stageId}\`: ` : '';
  return {
    code: 'invalid_shape',
    ...(stageId ? { stageId } : {}),
    path,
    message: `${prefix}${where}: ${issue.message}`,
  };
}

function stageIdAt(input: unknown, path: readonly (string | number)[]): string | undefined {
  if (path[0] !== 'stages' || typeof path[1] !== 'number') return undefined;
  const stages = (input as { stages?: unknown } | null)?.stages;
  if (!Array.isArray(stages)) return undefined;
  const id = (stages[path[1]] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id.length > 0 ? id : `#${path[1] + 1}`;
}

/** `['stages', 2, 'transitions', 0, 'to']` → `stages[2].transitions[0].to`. */
export function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`))
    .join('');
}

import { z } from 'zod';
import { FailureCategorySchema } from '../sessions/failure-category.js';

/**
 * The one workflow definition schema. TypeScript definitions and YAML files are both plain data
 * validated here, then checked as a graph by `parseWorkflow`. Artifact schemas are JSON Schema
 * (write them with `z.toJSONSchema(zodSchema)` in TypeScript), so a definition is data that can
 * be stored, hashed and compared.
 */

/** Stage ids and workflow ids: short, lowercase, stable names. */
export const StageIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'expected a lowercase id such as `implement` or `code-review`');

/** When a transition applies. Evaluated in declaration order; the first match wins. */
export const TransitionConditionSchema = z.discriminatedUnion('on', [
  /** The stage completed (with any verdict). */
  z.strictObject({ on: z.literal('success') }),
  /** The stage completed with this verdict; the stage must declare it in `verdicts`. */
  z.strictObject({ on: z.literal('verdict'), verdict: z.string().min(1) }),
  /** The stage failed and is not retried; optionally only for these categories. */
  z.strictObject({
    on: z.literal('failure'),
    categories: z.array(FailureCategorySchema).min(1).optional(),
  }),
  /** The stage failed with a retryable category on its last allowed attempt. */
  z.strictObject({ on: z.literal('retries_exhausted') }),
]);
export type TransitionCondition = z.infer<typeof TransitionConditionSchema>;

export const TransitionDefinitionSchema = z
  .strictObject({
    when: TransitionConditionSchema,
    /** The next stage; exactly one of `to` and `end`. */
    to: StageIdSchema.optional(),
    /** Ends the workflow instead of moving to a stage. */
    end: z.enum(['completed', 'failed']).optional(),
    /**
     * How many times this edge may be taken in one session; once spent, evaluation falls through
     * to the next matching transition. Every cycle in a workflow must contain a bounded edge.
     */
    maxTraversals: z.number().int().min(1).max(1000).optional(),
  })
  .refine((transition) => (transition.to === undefined) !== (transition.end === undefined), {
    message: 'a transition needs exactly one of `to` (a stage) or `end` (completed|failed)',
  });
export type TransitionDefinition = z.infer<typeof TransitionDefinitionSchema>;

export const RetryPolicySchema = z.strictObject({
  /** Attempts per visit of the stage, the first included. */
  maxAttempts: z.number().int().min(1).max(20),
  /** Failure categories that are retried in the same stage; others go to the transitions. */
  retryOn: z.array(FailureCategorySchema),
  /**
   * The most recorded waiting, since the attempt's last model answer, for a model provider that
   * fails transiently (down, loading, slow, rate-limited) before the attempt fails instead
   * (behaviour `transient-provider-waits`; default 300000, five minutes).
   */
  providerWaitMs: z.number().int().min(0).max(86_400_000).optional(),
});
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

/** Checks the kernel runs before a stage's artifact counts as done (commands that must pass). */
export const DefinitionOfDoneSchema = z.strictObject({
  checks: z.array(z.strictObject({ name: z.string().min(1), command: z.string().min(1) })).min(1),
});
export type DefinitionOfDone = z.infer<typeof DefinitionOfDoneSchema>;

/**
 * The stage delegates its work to a sub-session: instead of asking a model, it runs the
 * workflow `workflow` (one of the kernel configuration's `subWorkflows`) as a session of its
 * own on `task`, where `{{task}}` stands for this session's task, and takes the child's final
 * accepted artifact as its answer, validated like a model's.
 */
export const SubagentDefinitionSchema = z.strictObject({
  workflow: StageIdSchema,
  task: z.string().min(1),
});
export type SubagentDefinition = z.infer<typeof SubagentDefinitionSchema>;

/** A JSON Schema object describing the artifact's content. */
export const JsonSchemaObjectSchema = z.record(z.string(), z.unknown());

export const StageDefinitionSchema = z.strictObject({
  id: StageIdSchema,
  role: z.string().min(1),
  instructions: z.string(),
  allowedTools: z.array(z.string().min(1)).default([]),
  /** Model capabilities the stage needs, e.g. `tool_calling`. */
  capabilities: z.array(z.string().min(1)).default([]),
  artifact: z.strictObject({ kind: z.string().min(1), schema: JsonSchemaObjectSchema }),
  /** Verdict values the artifact's `verdict` field may take; conditions may route on them. */
  verdicts: z.array(z.string().min(1)).default([]),
  retry: RetryPolicySchema.default({ maxAttempts: 1, retryOn: [] }),
  definitionOfDone: DefinitionOfDoneSchema.optional(),
  /** Whether an accepted artifact of this stage also needs a granted approval. */
  requiresApproval: z.boolean().default(false),
  /** Run a sub-session for this stage's artifact instead of asking a model (default: absent). */
  subagent: SubagentDefinitionSchema.optional(),
  transitions: z.array(TransitionDefinitionSchema),
});
export type StageDefinition = z.infer<typeof StageDefinitionSchema>;

export const WorkflowDefinitionSchema = z.strictObject({
  id: StageIdSchema,
  description: z.string().optional(),
  initialStage: StageIdSchema,
  stages: z.array(StageDefinitionSchema).min(1),
});
/** A workflow definition after defaults are applied. */
export type WorkflowDefinition = z.infer<typeof WorkflowDefinitionSchema>;
/** A workflow definition as authored (defaults may be left out). */
export type WorkflowDefinitionInput = z.input<typeof WorkflowDefinitionSchema>;

/** The counted name of a transition edge: `review->implement`, `verify->end:failed`. */
export function edgeName(from: string, transition: TransitionDefinition): string {
  return transition.to !== undefined
    ? `${from}->${transition.to}`
    : `${from}->end:${transition.end}`;
}

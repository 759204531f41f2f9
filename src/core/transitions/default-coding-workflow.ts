import { z } from 'zod';
import type { FailureCategory } from '../sessions/failure-category.js';
import type { DefinitionOfDone, WorkflowDefinitionInput } from './workflow-definition.js';
import { parseWorkflow, type Workflow } from './workflow.js';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** What the plan stage must produce: the files it intends to touch are checked against the workspace. */
export const PlanArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  steps: z.array(z.string().min(1)).min(1),
  files: z.array(
    z.strictObject({ path: z.string().min(1), change: z.enum(['create', 'modify', 'delete']) }),
  ),
});

export const ChangeArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  filesChanged: z.array(z.string().min(1)),
});

export const VerificationArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  passed: z.boolean(),
});

/** A review names the artifact it reviewed and its verdict; rework comes with notes. */
export const ReviewArtifactSchema = z.strictObject({
  verdict: z.enum(['approved', 'rework']),
  reviewedArtifact: sha256,
  notes: z.array(z.string().min(1)),
});

export const RecoveryArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  notesAddressed: z.array(z.string().min(1)),
  filesChanged: z.array(z.string().min(1)),
});

export type DefaultCodingWorkflowOptions = {
  /** review → implement rework cycles before the notes go to recovery (default 3). */
  readonly maxReviewCycles?: number;
  /** verify → implement cycles after a failed definition of done (default 3). */
  readonly maxVerifyCycles?: number;
  /** Attempts per stage visit for retryable failures (default 3). */
  readonly maxAttempts?: number;
  /** Commands the verify stage must pass (the definition of done); none by default. */
  readonly definitionOfDone?: DefinitionOfDone;
};

const RETRYABLE: FailureCategory[] = ['inference', 'provider', 'tool', 'validation'];
const READ_TOOLS = ['read_file', 'list_dir', 'glob', 'grep'];
const WRITE_TOOLS = [...READ_TOOLS, 'write_file', 'edit_file', 'exec'];

/**
 * The definition of the default coding workflow (spec 001): plan → implement → verify → review;
 * review approves (→ completed) or asks for rework (→ implement) at most `maxReviewCycles`
 * times; then the accumulated review notes go once to `recovery`, whose fix is verified and
 * reviewed again; if review still cannot approve, the workflow fails.
 */
export function defaultCodingWorkflowDefinition(
  options: DefaultCodingWorkflowOptions = {},
): WorkflowDefinitionInput {
  const maxReviewCycles = options.maxReviewCycles ?? 3;
  const maxVerifyCycles = options.maxVerifyCycles ?? 3;
  const retry = { maxAttempts: options.maxAttempts ?? 3, retryOn: RETRYABLE };
  const failed = { when: { on: 'failure' as const }, end: 'failed' as const };
  // A prerequisite the stage could not create in place goes once to recovery (spec 001).
  const precondition = {
    when: { on: 'failure' as const, categories: ['workspace_precondition' as const] },
    to: 'recovery',
    maxTraversals: 1,
  };
  const artifact = (kind: string, schema: z.ZodType) => ({ kind, schema: z.toJSONSchema(schema) });
  return {
    id: 'default-coding',
    description: 'plan → implement → verify → review, with bounded rework and one recovery',
    initialStage: 'plan',
    stages: [
      {
        id: 'plan',
        role: 'planner',
        instructions: 'Read the task and the workspace; produce a plan naming the files to change.',
        allowedTools: READ_TOOLS,
        capabilities: ['tool_calling'],
        artifact: artifact('plan', PlanArtifactSchema),
        retry,
        transitions: [{ when: { on: 'success' }, to: 'implement' }, failed],
      },
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Carry out the plan, addressing any review notes.',
        allowedTools: WRITE_TOOLS,
        capabilities: ['tool_calling'],
        artifact: artifact('change', ChangeArtifactSchema),
        retry,
        transitions: [{ when: { on: 'success' }, to: 'verify' }, precondition, failed],
      },
      {
        id: 'verify',
        role: 'verifier',
        instructions: 'Run the definition of done and report whether the change satisfies it.',
        allowedTools: [...READ_TOOLS, 'exec'],
        capabilities: ['tool_calling'],
        artifact: artifact('verification', VerificationArtifactSchema),
        retry: { ...retry, retryOn: RETRYABLE.filter((category) => category !== 'validation') },
        ...(options.definitionOfDone ? { definitionOfDone: options.definitionOfDone } : {}),
        transitions: [
          { when: { on: 'success' }, to: 'review' },
          {
            when: { on: 'failure', categories: ['validation'] },
            to: 'implement',
            maxTraversals: maxVerifyCycles,
          },
          precondition,
          failed,
        ],
      },
      {
        id: 'review',
        role: 'reviewer',
        instructions: 'Review the verified change; approve it or ask for rework with notes.',
        allowedTools: READ_TOOLS,
        capabilities: ['tool_calling'],
        artifact: artifact('review', ReviewArtifactSchema),
        verdicts: ['approved', 'rework'],
        retry,
        transitions: [
          { when: { on: 'verdict', verdict: 'approved' }, end: 'completed' },
          {
            when: { on: 'verdict', verdict: 'rework' },
            to: 'implement',
            maxTraversals: maxReviewCycles,
          },
          { when: { on: 'verdict', verdict: 'rework' }, to: 'recovery', maxTraversals: 1 },
          { when: { on: 'verdict', verdict: 'rework' }, end: 'failed' },
          failed,
        ],
      },
      {
        id: 'recovery',
        role: 'recovery',
        instructions:
          'Address every accumulated review note, or create the missing prerequisite an earlier stage failed on, in one final fix.',
        allowedTools: WRITE_TOOLS,
        capabilities: ['tool_calling'],
        artifact: artifact('recovery', RecoveryArtifactSchema),
        retry,
        transitions: [{ when: { on: 'success' }, to: 'verify' }, failed],
      },
    ],
  };
}

/** Builds the default coding workflow, validated like any other definition. */
export function createDefaultCodingWorkflow(options: DefaultCodingWorkflowOptions = {}): Workflow {
  return parseWorkflow(defaultCodingWorkflowDefinition(options), {
    source: 'defaultCodingWorkflow',
  });
}

/** The default coding workflow with its default bounds (3 review cycles, 3 verify cycles). */
export const defaultCodingWorkflow: Workflow = createDefaultCodingWorkflow();

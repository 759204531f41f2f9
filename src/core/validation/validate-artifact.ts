import { deepFreeze } from '../base/deep-freeze.js';
import { hasValidHash, type Artifact } from '../artifacts/artifact.js';
import { canonicalJson } from '../events/canonical-json.js';
import { artifactApprovalKey } from '../sessions/artifact-approval-key.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { artifactAccepted } from '../artifacts/artifact-events.js';
import type { Workflow, WorkflowStage } from '../transitions/workflow.js';
import { formatPath } from '../transitions/workflow.js';
import type { SemanticInput, ValidationContext } from './artifact-validator.js';
import type { validationFailed, ValidationPhase } from './validation-events.js';
import type { ValidatorRegistry } from './validator-registry.js';

export type ValidationFailedPayload = PayloadOf<typeof validationFailed>;
export type ArtifactAcceptedPayload = PayloadOf<typeof artifactAccepted>;

export type ValidationRequest = {
  readonly workflow: Workflow;
  readonly registry: ValidatorRegistry;
  readonly context: ValidationContext;
  readonly artifact: Artifact;
  /**
   * Read the content with its keys in canonical order and list schema problems sorted
   * (`decisions-from-canonical-output`): no message then depends on the order of the answer's
   * or the schema's keys.
   */
  readonly canonical?: boolean;
};

/** The pipeline's verdict and the events the kernel appends for it. */
export type ValidationResult =
  | { readonly accepted: true; readonly events: readonly [ArtifactAcceptedPayload] }
  | {
      readonly accepted: false;
      /** The phase that stopped the artifact; later phases did not run. */
      readonly phase: ValidationPhase;
      readonly events: readonly ValidationFailedPayload[];
    };

export { artifactApprovalKey };

/**
 * Runs the validation pipeline on a proposed artifact: routing → schema → semantic → approval.
 * Pure. Every validator of a phase runs; a phase with any failure stops the pipeline and each
 * failure becomes one `validation_failed`. Only when all four phases pass does the result hold
 * `artifact_accepted`. Semantic validators see a frozen copy and can only add failures; one that
 * throws fails its artifact, it never lets one through.
 */
export function validateArtifact(request: ValidationRequest): ValidationResult {
  const { workflow, registry, context } = request;
  const artifact =
    request.canonical === true
      ? { ...request.artifact, content: canonicalContent(request.artifact.content) }
      : request.artifact;
  const stage = workflow.stages.get(artifact.stageId);
  const fail = (
    phase: ValidationPhase,
    validator: string,
    message: string,
  ): ValidationFailedPayload => ({
    type: 'validation_failed',
    hash: artifact.hash,
    stageId: artifact.stageId,
    phase,
    validator,
    message,
  });

  const routing = checkRouting(workflow, context, artifact, stage).map((message) =>
    fail('routing', 'routing', message),
  );
  if (routing.length > 0 || !stage) return { accepted: false, phase: 'routing', events: routing };

  const schema = checkSchema(stage, artifact, request.canonical === true).map((message) =>
    fail('schema', 'schema', message),
  );
  if (schema.length > 0) return { accepted: false, phase: 'schema', events: schema };

  const input = deepFreeze(
    structuredClone({ artifact, stage: withoutSchema(stage), context }),
  ) as SemanticInput;
  const semantic: ValidationFailedPayload[] = [];
  for (const validator of registry.validatorsFor(artifact.kind)) {
    for (const message of runValidator(validator.validate.bind(validator), input)) {
      semantic.push(fail('semantic', validator.name, message));
    }
  }
  if (semantic.length > 0) return { accepted: false, phase: 'semantic', events: semantic };

  if (
    stage.requiresApproval &&
    !context.grantedApprovals.includes(artifactApprovalKey(artifact.hash))
  ) {
    return {
      accepted: false,
      phase: 'approval',
      events: [
        fail(
          'approval',
          'approval',
          `stage \`${stage.id}\` requires approval of its artifact; nothing to change, it waits for \`${artifactApprovalKey(artifact.hash)}\` to be granted`,
        ),
      ],
    };
  }
  return {
    accepted: true,
    events: [
      {
        type: 'artifact_accepted',
        hash: artifact.hash,
        kind: artifact.kind,
        stageId: artifact.stageId,
      },
    ],
  };
}

function checkRouting(
  workflow: Workflow,
  context: ValidationContext,
  artifact: Artifact,
  stage: WorkflowStage | undefined,
): string[] {
  const problems: string[] = [];
  if (artifact.sessionId !== context.sessionId) {
    problems.push(
      `the artifact belongs to session \`${artifact.sessionId}\`, not \`${context.sessionId}\``,
    );
  }
  if (!hasValidHash(artifact)) problems.push('the artifact hash does not match its content');
  if (!stage) {
    problems.push(`workflow \`${workflow.id}\` has no stage \`${artifact.stageId}\``);
    return problems;
  }
  if (!context.activeStage) {
    problems.push(`no stage is running, so stage \`${stage.id}\` cannot submit an artifact now`);
  } else if (context.activeStage.stageId !== stage.id) {
    problems.push(
      `the artifact is for stage \`${stage.id}\` but the running stage is \`${context.activeStage.stageId}\``,
    );
  }
  if (artifact.kind !== stage.artifact.kind) {
    problems.push(
      `stage \`${stage.id}\` produces \`${stage.artifact.kind}\` artifacts, not \`${artifact.kind}\``,
    );
  }
  const accepted = new Set(context.acceptedArtifacts.map((ref) => ref.hash));
  for (const parent of artifact.lineage.parents) {
    if (!accepted.has(parent)) {
      problems.push(`lineage names ${parent}, which is not an accepted artifact of this session`);
    }
  }
  return problems;
}

/** The content with every object's keys in canonical order (it was hashed canonically). */
function canonicalContent(content: Artifact['content']): Artifact['content'] {
  return JSON.parse(canonicalJson(content)) as Artifact['content'];
}

function checkSchema(stage: WorkflowStage, artifact: Artifact, canonical: boolean): string[] {
  const parsed = stage.artifactSchema.safeParse(artifact.content);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
        return `${path.length ? formatPath(path) : 'content'}: ${issue.message}`;
      });
  if (stage.verdicts.length > 0) {
    const verdict = (artifact.content as { verdict?: unknown } | null)?.verdict;
    if (typeof verdict !== 'string' || !stage.verdicts.includes(verdict)) {
      problems.push(`verdict: expected one of ${stage.verdicts.join(' | ')}`);
    }
  }
  if (problems.length === 0) return [];
  if (canonical) problems.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    `the \`${stage.artifact.kind}\` artifact does not match its schema: ${problems.join('; ')}`,
  ];
}

function runValidator(
  validate: (input: SemanticInput) => readonly string[],
  input: SemanticInput,
): string[] {
  try {
    const messages: unknown = validate(input);
    if (!Array.isArray(messages) || !messages.every((m) => typeof m === 'string' && m.length > 0)) {
      return [
        'the validator returned something other than a list of messages, so the artifact is not accepted',
      ];
    }
    return messages as string[];
  } catch (error) {
    return [
      `the validator failed (${(error as Error).message ?? String(error)}), so the artifact is not accepted`,
    ];
  }
}

function withoutSchema(stage: WorkflowStage): Omit<WorkflowStage, 'artifactSchema'> {
  const { artifactSchema: _schema, ...rest } = stage;
  return rest;
}

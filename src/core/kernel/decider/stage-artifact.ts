import { createArtifact, type Artifact } from '../../artifacts/artifact.js';
import type { Sha256 } from '../../base/sha256.js';
import type { JsonValue } from '../../events/canonical-json.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import { answerTextOf, artifactContentFor } from './artifact-content.js';
import type { KernelState } from './kernel-state.js';
import type { InferenceResult } from '../../inference/inference-result.js';

/**
 * The artifact a turn's final answer proposes, rebuilt from recorded state alone: its content is
 * the answer's JSON, its lineage the inference event and the latest accepted artifact of every
 * other stage.
 */
export function proposedArtifact(
  state: KernelState,
  stage: WorkflowStage,
  turn: { readonly result: InferenceResult; readonly inferenceEventId: string },
  sha256: Sha256,
): Artifact {
  const text = answerTextOf(turn.result);
  // The artifact derives from the latest accepted artifact of every other stage, in order.
  const latest = new Map<string, string>();
  for (const artifact of state.accepted)
    if (artifact.stageId !== stage.id) latest.set(artifact.stageId, artifact.hash);
  const draft = (content: JsonValue) => ({
    kind: stage.artifact.kind,
    sessionId: state.session.sessionId ?? '',
    stageId: stage.id,
    content,
    lineage: { inferenceEventId: turn.inferenceEventId, parents: [...new Set(latest.values())] },
  });
  return createArtifact(draft(artifactContentFor(text)), sha256);
}

/** The `verdict` field of an artifact's content, when it has one. */
export function verdictOf(content: JsonValue): string | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  const verdict = (content as { verdict?: unknown }).verdict;
  return typeof verdict === 'string' ? verdict : undefined;
}

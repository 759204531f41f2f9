import { z } from 'zod';
import type { Artifact } from '../artifacts/artifact.js';
import type { JsonValue } from '../events/canonical-json.js';
import type { CorrexEvent } from '../event-catalog.js';
import type { InferenceResult } from '../inference/inference-result.js';

/**
 * The artifact content a model's final answer carries: its text parsed as JSON (a surrounding
 * ```json fence is tolerated), or the text itself when it is not JSON, so the schema phase of
 * validation reports the problem to the model instead of the kernel guessing.
 */
export function artifactContentOf(text: string): JsonValue {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  const body = fenced?.[1] ?? trimmed;
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return text;
  }
}

const JsonContentSchema = z.json();

/**
 * The content an artifact is made of: the parsed answer, or the answer's text when the parsed
 * value is no JSON an artifact can hold (a number like 1e400 parses to Infinity).
 */
export function artifactContentFor(text: string): JsonValue {
  const parsed = artifactContentOf(text);
  return JsonContentSchema.safeParse(parsed).success ? parsed : text;
}

/**
 * The text an answer's artifact is made of: the answer's text, or, when the answer was a call of
 * the finishing tool (the only way an artifact is proposed from a turn with calls), that call's
 * arguments.
 */
export function answerTextOf(result: InferenceResult): string {
  const [finishing] = result.toolCalls;
  return finishing === undefined ? result.text : finishing.argsRaw;
}

/** A proposed artifact rebuilt from `artifact_proposed` and the answer it was made from. */
export function recordedArtifact(
  sessionId: string,
  proposed: Extract<CorrexEvent['payload'], { type: 'artifact_proposed' }>,
  answerText: string,
): Artifact {
  return {
    hash: proposed.hash,
    kind: proposed.kind,
    sessionId,
    stageId: proposed.stageId,
    content: artifactContentFor(answerText),
    lineage: { inferenceEventId: proposed.inferenceEventId, parents: [...proposed.parents] },
  };
}

import { z } from 'zod';
import type { Artifact } from '../../artifacts/artifact.js';
import type { JsonValue } from '../../events/canonical-json.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { InferenceResult } from '../../inference/inference-result.js';
import { jsonNestingDepth } from '../../inference/tool-call-arguments.js';

/**
 * The deepest answer an artifact is made of. An artifact's hash holds its content one level
 * down and the canonical encoder stops at 256 levels, so no recorded session ever held a deeper
 * artifact: refusing deeper answers changes nothing any recorded session re-derives, and keeps
 * every recursive parse and validation (zod's among them) within its stack.
 */
export const MAX_ANSWER_DEPTH = 255;

/**
 * Why an answer's text cannot be made into an artifact, measured on the text without parsing
 * it, or undefined when it can.
 */
export function answerBoundsProblem(text: string): string | undefined {
  const depth = jsonNestingDepth(answerBody(text));
  return depth > MAX_ANSWER_DEPTH
    ? `the answer is nested ${depth} levels deep; at most ${MAX_ANSWER_DEPTH} are accepted`
    : undefined;
}

/** The JSON an answer carries: its text, without a surrounding ```json fence. */
function answerBody(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  return fenced?.[1] ?? trimmed;
}

/**
 * The artifact content a model's final answer carries: its text parsed as JSON (a surrounding
 * ```json fence is tolerated), or the text itself when it is not JSON, so the schema phase of
 * validation reports the problem to the model instead of the kernel guessing. Text nested past
 * `MAX_ANSWER_DEPTH` is never parsed: its content is the text.
 */
export function artifactContentOf(text: string): JsonValue {
  const body = answerBody(text);
  if (jsonNestingDepth(body) > MAX_ANSWER_DEPTH) return text;
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

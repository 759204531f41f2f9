import type { JsonValue } from '../events/canonical-json.js';

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

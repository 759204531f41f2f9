import { canonicalJson, type JsonValue } from '../../../events/canonical-json.js';
import { answerBoundsProblem, artifactContentOf } from '../../decider/artifact-content.js';

/*
 * Under `decisions-from-canonical-output`, whatever the kernel derives from a model's JSON (issue
 * lists, the arguments a call runs with, the transcript the next request renders) comes from its
 * canonical form: keys sorted, no insignificant white space. The order in which a model happened
 * to write its keys then changes no decision, and the same answer read back from a store (which
 * keeps canonical JSON) re-derives the same events.
 */

/** `value` with every object's keys in canonical order; as given when it has no canonical form. */
export function canonicalValue<T>(value: T): T {
  try {
    return JSON.parse(canonicalJson(value)) as T;
  } catch {
    return value;
  }
}

/**
 * A model's text as the next request shows it: its canonical JSON when the whole text is a JSON
 * object or array (fenced or not, within the answer bounds), else the text as written.
 */
export function canonicalModelText(text: string): string {
  if (answerBoundsProblem(text) !== undefined) return text;
  const content: JsonValue = artifactContentOf(text);
  if (typeof content !== 'object' || content === null) return text;
  try {
    return canonicalJson(content);
  } catch {
    return text;
  }
}

/** Problem lines in one order whatever the order of the schema's or the answer's keys. */
export function inCanonicalOrder(problems: readonly string[]): string[] {
  return [...problems].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

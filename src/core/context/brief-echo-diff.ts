import { canonicalJson, type JsonValue } from '../events/canonical-json.js';
import { extractBriefReferences, type BriefReference } from './brief-references.js';

export type BriefEcho = {
  readonly dropped: readonly BriefReference[];
  readonly invented: readonly BriefReference[];
};

/**
 * Compares an artifact's restatement of the task with the brief. Dropped: a brief reference
 * whose text appears nowhere in the artifact. Invented: a path or issue id the artifact names
 * (in its text or a `files[].path`) that the brief does not. Pure and order-preserving.
 */
export function briefEchoDiff(brief: readonly BriefReference[], content: JsonValue): BriefEcho {
  const text = textOf(content);
  const dropped = brief.filter((reference) => !text.includes(reference.value));
  const named = new Set(brief.map((reference) => `${reference.kind}:${reference.value}`));
  const invented = extractBriefReferences(text).filter(
    (reference) =>
      (reference.kind === 'path' || reference.kind === 'issue') &&
      !named.has(`${reference.kind}:${reference.value}`),
  );
  return { dropped, invented };
}

/** Every string of the content, one per line (keys left out), so paths read as words. */
function textOf(content: JsonValue): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (content !== null && typeof content === 'object')
    return Object.values(content)
      .map((value) => textOf(value as JsonValue))
      .join('\n');
  return content === null ? '' : canonicalJson(content);
}

import type { CorrexEvent } from '../core/event-catalog.js';
import { canonicalJson } from '../core/events/canonical-json.js';

/**
 * Payload fields that name a session's own derived values rather than what happened: artifact
 * hashes (they cover the session id), the ids and digests of its requests and context packs
 * (and manifests, whole or by reference: their items name the workspace and hash it),
 * the size estimate of a pack (it holds the workspace path) and measured durations. Two runs
 * that did the same thing differ only in these.
 */
const DERIVED_FIELDS = new Set([
  'hash',
  'artifactHash',
  'parents',
  'inferenceEventId',
  'packDigest',
  'requestDigest',
  'manifest',
  'manifestRef',
  'tokenEstimate',
  'latencyMs',
  'durationMs',
  'elapsedMs',
]);

/** Where two logs first disagree, compared event by event at equal sequences. */
export type FirstDifference = {
  readonly sequence: number;
  /** The event type in each log there (null: that log has ended). */
  readonly a: string | null;
  readonly b: string | null;
  /** The payload fields that differ (`payload.result.text`; empty when the types differ or a log ended). */
  readonly fields: readonly string[];
};

/**
 * The first sequence whose event differs between two sessions, comparing what happened: the
 * event type and payload, with the envelope (ids, timestamps, causation, hashes) ignored, each
 * session's own id and workspace path read as placeholders, the derived fields above dropped,
 * and each artifact hash named by its kind wherever it appears in text. `session_configured`
 * is left out (its differences are listed apart: a fork onto another model differs there by
 * design). Null: the logs tell the same story to the end.
 */
export function firstDifference(
  a: readonly CorrexEvent[],
  b: readonly CorrexEvent[],
): FirstDifference | null {
  const left = normalizer(a);
  const right = normalizer(b);
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a[index];
    const y = b[index];
    if (x?.payload.type === 'session_configured' && y?.payload.type === 'session_configured')
      continue;
    if (x === undefined || y === undefined || x.payload.type !== y.payload.type)
      return {
        sequence: index + 1,
        a: x?.payload.type ?? null,
        b: y?.payload.type ?? null,
        fields: [],
      };
    const px = left(x.payload);
    const py = right(y.payload);
    const fields = differingPaths(px, py, 'payload', 3);
    if (fields.length > 0)
      return { sequence: index + 1, a: x.payload.type, b: y.payload.type, fields };
  }
  return null;
}

/** The configuration fields two sessions recorded differently (models, policy, limits...). */
export function configurationDifferences(
  a: readonly CorrexEvent[],
  b: readonly CorrexEvent[],
): string[] {
  const config = (events: readonly CorrexEvent[]) => {
    const first = events[0]?.payload;
    return first?.type === 'session_configured'
      ? (first.configuration as Record<string, unknown>)
      : {};
  };
  const x = config(a);
  const y = config(b);
  return [...new Set([...Object.keys(x), ...Object.keys(y)])]
    .sort()
    .filter((key) => canonicalJson(x[key] ?? null) !== canonicalJson(y[key] ?? null));
}

function normalizer(events: readonly CorrexEvent[]) {
  const replacements: [string, string][] = [];
  const sessionId = events[0]?.sessionId;
  for (const event of events) {
    const payload = event.payload;
    if (payload.type === 'session_created') replacements.push([payload.workspace, '<workspace>']);
    // A fork's copied prefix names its parent's workspace and id where the parent's did.
    if (payload.type === 'session_forked')
      replacements.push(
        [payload.parentWorkspace, '<workspace>'],
        [payload.parentSessionId, '<session>'],
      );
    if (payload.type === 'artifact_proposed')
      replacements.push([payload.hash, `<artifact:${payload.kind}>`]);
  }
  if (sessionId !== undefined) replacements.push([sessionId, '<session>']);
  return (payload: CorrexEvent['payload']): Record<string, unknown> => {
    let text = canonicalJson(payload);
    for (const [from, to] of replacements) text = text.split(from).join(to);
    return withoutDerived(JSON.parse(text)) as Record<string, unknown>;
  };
}

/** The value with the derived fields removed at every depth. */
function withoutDerived(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDerived);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !DERIVED_FIELDS.has(key))
      .map(([key, inner]) => [key, withoutDerived(inner)]),
  );
}

/** Paths (`result.text`) where two values differ, descending into objects a few levels. */
function differingPaths(x: unknown, y: unknown, prefix: string, depth: number): string[] {
  const object = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (canonicalJson(x ?? null) === canonicalJson(y ?? null)) return [];
  if (depth === 0 || !object(x) || !object(y)) return [prefix];
  return [...new Set([...Object.keys(x), ...Object.keys(y)])]
    .sort()
    .flatMap((key) => differingPaths(x[key], y[key], `${prefix}.${key}`, depth - 1));
}

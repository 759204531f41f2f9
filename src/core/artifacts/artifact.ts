import { z } from 'zod';
import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { canonicalJson, type JsonValue } from '../events/canonical-json.js';
import { ArtifactIntegrityError } from './artifact-errors.js';

export const ArtifactHashSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 hex digest (64 lowercase hex characters)');

/** Where an artifact came from: the inference that produced it and the artifacts it derives from. */
export const ArtifactLineageSchema = z.strictObject({
  /** The `inference_completed` event whose output this is; null for artifacts made by people or tools. */
  inferenceEventId: z.string().min(1).nullable(),
  /** Earlier artifacts this one was derived from (a review names the change it reviewed...). */
  parents: z.array(ArtifactHashSchema),
});
export type ArtifactLineage = z.infer<typeof ArtifactLineageSchema>;

/**
 * An immutable, content-addressed stage product. `hash` is the SHA-256 of the canonical JSON of
 * every other field, so the content *and* its lineage are pinned: nothing can change without
 * changing the hash. An artifact is never edited, only superseded by a new one that names it as
 * a parent.
 */
export const ArtifactSchema = z.strictObject({
  hash: ArtifactHashSchema,
  kind: z.string().min(1),
  sessionId: z.string().min(1),
  stageId: z.string().min(1),
  content: z.json(),
  lineage: ArtifactLineageSchema,
});
export type Artifact = Omit<z.infer<typeof ArtifactSchema>, 'content'> & {
  readonly content: JsonValue;
};

/** An artifact before it is hashed. */
export type ArtifactDraft = Omit<Artifact, 'hash'>;

/** The hash an artifact with these fields has. */
export function hashArtifact(draft: ArtifactDraft, sha256: Sha256 = sha256Hex): string {
  const { kind, sessionId, stageId, content, lineage } = draft;
  return sha256(canonicalJson({ kind, sessionId, stageId, content, lineage }));
}

/** Seals a draft: parses it (content must be canonical JSON) and stamps its hash. */
export function createArtifact(draft: ArtifactDraft, sha256: Sha256 = sha256Hex): Artifact {
  const parsed = ArtifactSchema.omit({ hash: true }).parse(draft) as ArtifactDraft;
  return { ...parsed, hash: hashArtifact(parsed, sha256) };
}

/** Whether an artifact's hash matches its fields. */
export function hasValidHash(artifact: Artifact, sha256: Sha256 = sha256Hex): boolean {
  const { hash, ...draft } = artifact;
  return hashArtifact(draft, sha256) === hash;
}

/** The canonical bytes stores keep for an artifact. */
export function encodeArtifact(artifact: Artifact): string {
  return canonicalJson(artifact);
}

/**
 * Reads stored bytes back into an artifact, checking that they parse and still hash to `hash`.
 * Throws `ArtifactIntegrityError` otherwise: a store never returns an altered artifact.
 */
export function decodeArtifact(hash: string, bytes: string, sha256: Sha256 = sha256Hex): Artifact {
  let value: unknown;
  try {
    value = JSON.parse(bytes);
  } catch (error) {
    throw new ArtifactIntegrityError(
      hash,
      `stored bytes are not JSON: ${(error as Error).message}`,
    );
  }
  const parsed = ArtifactSchema.safeParse(value);
  if (!parsed.success)
    throw new ArtifactIntegrityError(
      hash,
      `stored bytes are not an artifact: ${parsed.error.message}`,
    );
  const artifact = parsed.data as Artifact;
  if (artifact.hash !== hash || !hasValidHash(artifact, sha256)) {
    throw new ArtifactIntegrityError(hash, 'stored bytes no longer match the hash');
  }
  return artifact;
}

/** Checks an artifact offered to a store: the schema, then the hash. */
export function checkArtifact(artifact: Artifact, sha256: Sha256 = sha256Hex): Artifact {
  const parsed = ArtifactSchema.safeParse(artifact);
  if (!parsed.success) {
    throw new ArtifactIntegrityError(
      String(artifact.hash),
      `not an artifact: ${parsed.error.message}`,
    );
  }
  if (!hasValidHash(artifact, sha256)) {
    throw new ArtifactIntegrityError(artifact.hash, 'the hash does not match its fields');
  }
  return parsed.data as Artifact;
}

import { CorrexError } from '../base/correx-error.js';

/** An artifact's hash does not match its bytes: it was altered, or built wrongly. */
export class ArtifactIntegrityError extends CorrexError {
  readonly hash: string;

  constructor(hash: string, detail: string) {
    super('artifact_integrity', `artifact ${hash}: ${detail}`);
    this.hash = hash;
  }
}

/** An artifact names a parent the store does not hold, so its lineage would dangle. */
export class ArtifactLineageError extends CorrexError {
  readonly hash: string;
  readonly missingParent: string;

  constructor(hash: string, missingParent: string) {
    super(
      'artifact_lineage',
      `artifact ${hash} names parent ${missingParent}, which the store does not hold: store parents first`,
    );
    this.hash = hash;
    this.missingParent = missingParent;
  }
}

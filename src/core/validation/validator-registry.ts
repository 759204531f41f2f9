import { CorrexError } from '../base/correx-error.js';
import type { ArtifactValidator } from './artifact-validator.js';
import { VALIDATION_PHASES } from './validation-events.js';

/** A validator could not be registered (duplicate or reserved name, no kinds). */
export class ValidatorRegistrationError extends CorrexError {
  constructor(message: string) {
    super('validator_registration', message);
  }
}

/** An immutable, ordered set of semantic validators; registration order is run order. */
export type ValidatorRegistry = {
  readonly names: readonly string[];
  /** A new registry with `validator` added after the existing ones. */
  register(validator: ArtifactValidator): ValidatorRegistry;
  /** The validators that apply to an artifact kind, in run order. */
  validatorsFor(kind: string): readonly ArtifactValidator[];
};

const reserved: ReadonlySet<string> = new Set(VALIDATION_PHASES);

export function createValidatorRegistry(
  validators: readonly ArtifactValidator[] = [],
): ValidatorRegistry {
  const list: ArtifactValidator[] = [];
  for (const validator of validators) {
    if (!/^[a-z][a-z0-9-]{0,63}$/.test(validator.name)) {
      throw new ValidatorRegistrationError(
        `validator name \`${validator.name}\` must be lowercase letters, digits and dashes`,
      );
    }
    if (reserved.has(validator.name)) {
      throw new ValidatorRegistrationError(
        `validator name \`${validator.name}\` is reserved for the pipeline's own phase`,
      );
    }
    if (list.some((existing) => existing.name === validator.name)) {
      throw new ValidatorRegistrationError(`validator \`${validator.name}\` is already registered`);
    }
    if (validator.kinds.length === 0) {
      throw new ValidatorRegistrationError(
        `validator \`${validator.name}\` names no artifact kinds`,
      );
    }
    list.push(validator);
  }
  const frozen = Object.freeze([...list]);
  return {
    names: Object.freeze(frozen.map((validator) => validator.name)),
    register: (validator) => createValidatorRegistry([...frozen, validator]),
    validatorsFor: (kind) => frozen.filter((validator) => validator.kinds.includes(kind)),
  };
}

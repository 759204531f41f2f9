import { InvalidArgumentError } from 'commander';
import { reservedNameReason } from '../person-name.js';

/** Parses `--by <name>`: a person's name, never one the audit trail reserves (`auto`, `policy`...). */
export function parsePersonName(value: string): string {
  const reason = reservedNameReason(value);
  if (reason !== null) throw new InvalidArgumentError(reason);
  return value;
}

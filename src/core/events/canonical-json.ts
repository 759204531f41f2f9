import { CorrexError } from '../base/correx-error.js';

/** A value that has exactly one canonical JSON text. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export type JsonObject = { readonly [key: string]: JsonValue };

/** Thrown when a value has no canonical JSON form (NaN, a class instance, a bigint, a cycle...). */
export class NonCanonicalValueError extends CorrexError {
  constructor(message: string) {
    super('non_canonical_value', message);
  }
}

/**
 * Serializes `value` canonically, after RFC 8785 (JCS): object keys sorted by UTF-16 code
 * units, no insignificant whitespace, numbers in ECMAScript's shortest round-trip form,
 * strings escaped as `JSON.stringify` does. Properties whose value is `undefined` are
 * omitted, so an optional field that is absent and one that is `undefined` encode alike.
 * Identical values always give identical text, which is what makes hashes and byte-for-byte
 * replay comparisons meaningful.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, '$', new Set());
}

function encode(value: unknown, path: string, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new NonCanonicalValueError(`${path} is ${value}: JSON has no such number`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return encodeObject(value, path, ancestors);
    default:
      throw new NonCanonicalValueError(`${path} is a ${typeof value}, which has no JSON form`);
  }
}

function encodeObject(value: object, path: string, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new NonCanonicalValueError(`${path} refers back to itself`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.map((item: unknown, index) =>
        item === undefined ? 'null' : encode(item, `${path}[${index}]`, ancestors),
      );
      return `[${items.join(',')}]`;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) {
      throw new NonCanonicalValueError(
        `${path} is a ${value.constructor.name}, not a plain object`,
      );
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort(compareCodeUnits);
    const members: string[] = [];
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue;
      members.push(`${JSON.stringify(key)}:${encode(member, `${path}.${key}`, ancestors)}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

// Array.prototype.sort's default compares UTF-16 code units, as RFC 8785 asks; named for clarity.
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

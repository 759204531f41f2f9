import { CorrexError } from '../base/correx-error.js';

/** A value that has exactly one canonical JSON text. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export type JsonObject = { readonly [key: string]: JsonValue };

/** Thrown when a value has no canonical JSON form (NaN, a lone surrogate, a class instance, a bigint, a cycle...). */
export class NonCanonicalValueError extends CorrexError {
  constructor(message: string) {
    super('non_canonical_value', message);
  }
}

/**
 * Serializes `value` canonically, after RFC 8785 (JCS): object keys sorted by UTF-16 code
 * units, no insignificant whitespace, numbers in ECMAScript's shortest round-trip form,
 * strings escaped as `JSON.stringify` does. A string with a lone surrogate is refused, as
 * I-JSON requires (the inputs normalise or reject such text before it becomes an event). Properties whose value is `undefined` are
 * omitted, so an optional field that is absent and one that is `undefined` encode alike.
 * Identical values always give identical text, which is what makes hashes and byte-for-byte
 * replay comparisons meaningful.
 */
export function canonicalJson(value: unknown): string {
  try {
    return encode(value, 0);
  } catch (error) {
    if (error instanceof PathedProblem)
      throw new NonCanonicalValueError(`$${error.path} ${error.problem}`);
    throw error;
  }
}

// Deep enough for any event; a cycle is reported as "nested too deep" instead of overflowing the stack.
const MAX_DEPTH = 256;

// RFC 8785 encodes I-JSON, whose strings are Unicode text: a lone surrogate has no canonical form.
// With the `u` flag a surrogate class matches only a surrogate that is not half of a pair.
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATE_PROBLEM = 'holds a lone surrogate: not Unicode text, so not I-JSON';

/** Carries the location of a problem outward; each level prepends its key, so the hot path builds no paths. */
class PathedProblem {
  constructor(
    readonly problem: string,
    public path = '',
  ) {}
}

function encode(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new PathedProblem(LONE_SURROGATE_PROBLEM);
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new PathedProblem(`is ${value}: JSON has no such number`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (depth >= MAX_DEPTH)
        throw new PathedProblem(
          `is nested deeper than ${MAX_DEPTH} levels or refers back to itself`,
        );
      return Array.isArray(value)
        ? encodeArray(value as unknown[], depth)
        : encodeObject(value, depth);
    default:
      throw new PathedProblem(`is a ${typeof value}, which has no JSON form`);
  }
}

function encodeArray(items: readonly unknown[], depth: number): string {
  let out = '[';
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out += ',';
    const item = items[index];
    try {
      out += item === undefined ? 'null' : encode(item, depth + 1);
    } catch (error) {
      if (error instanceof PathedProblem) error.path = `[${index}]${error.path}`;
      throw error;
    }
  }
  return `${out}]`;
}

function encodeObject(value: object, depth: number): string {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    throw new PathedProblem(`is a ${value.constructor.name}, not a plain object`);
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, which is the order RFC 8785 asks for.
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    if (LONE_SURROGATE.test(key))
      throw new PathedProblem(`has a key that ${LONE_SURROGATE_PROBLEM}`);
    try {
      out += `${JSON.stringify(key)}:${encode(member, depth + 1)}`;
    } catch (error) {
      if (error instanceof PathedProblem) error.path = `.${key}${error.path}`;
      throw error;
    }
  }
  return `${out}}`;
}

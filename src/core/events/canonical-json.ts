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
  // Most values take the fast path: a copy with its keys inserted in sorted order, written by one
  // native JSON.stringify. Whatever the copy could not carry exactly goes to the general encoder,
  // which gives the same text and names any problem.
  const copy = sortedCopy(value, 0);
  if (copy !== NOT_COPIED) return JSON.stringify(copy);
  try {
    return encode(value, 0);
  } catch (error) {
    if (error instanceof PathedProblem)
      throw new NonCanonicalValueError(`$${error.path} ${error.problem}`);
    throw error;
  }
}

/**
 * The canonical text of `value` as a member one level inside an object, or undefined where
 * `canonicalJson` of the enclosing object would not take its fast path (it then gives the text or
 * names the problem). For encoders that write an object's own level themselves (see
 * shape-encoder.ts): the same text `canonicalJson` writes for that member.
 */
export function canonicalMemberJson(value: unknown): string | undefined {
  const copy = sortedCopy(value, 1);
  return copy === NOT_COPIED ? undefined : JSON.stringify(copy);
}

// Deep enough for any event; a cycle is reported as "nested too deep" instead of overflowing the stack.
const MAX_DEPTH = 256;

// RFC 8785 encodes I-JSON, whose strings are Unicode text: a lone surrogate has no canonical form.
// `isWellFormed` is false exactly when a string holds one, at a fraction of a regex's cost.
const LONE_SURROGATE_PROBLEM = 'holds a lone surrogate: not Unicode text, so not I-JSON';

/** Carries the location of a problem outward; each level prepends its key, so the hot path builds no paths. */
class PathedProblem {
  constructor(
    readonly problem: string,
    public path = '',
  ) {}
}

const NOT_COPIED = Symbol('not copied');

// JavaScript lists array-index keys ("0", "42") before all others whatever their insertion
// order, so an object holding one cannot carry sorted order; such keys (and `__proto__`, which
// assignment would not create) leave the fast path. Any ten-digit-or-shorter integer counts.
const INDEX_LIKE_KEY = /^(?:0|[1-9][0-9]{0,9})$/;

/** INDEX_LIKE_KEY's test, with the regular expression run only on a key that starts with a digit. */
function isIndexLike(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && INDEX_LIKE_KEY.test(key);
}

/**
 * A copy of `value` that JSON.stringify writes canonically: plain objects rebuilt with sorted
 * keys (undefined members dropped), arrays with undefined as null. NOT_COPIED for anything else
 * (a lone surrogate, a non-finite number, a class instance, an index-like key, deep nesting...).
 */
function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed() ? value : NOT_COPIED;
    case 'number':
      return Number.isFinite(value) ? value : NOT_COPIED;
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (depth >= MAX_DEPTH) return NOT_COPIED;
      if (Array.isArray(value)) {
        const items = value as unknown[];
        const copy: unknown[] = new Array(items.length);
        for (let index = 0; index < items.length; index++) {
          const item = items[index];
          const itemCopy = item === undefined ? null : sortedCopy(item, depth + 1);
          if (itemCopy === NOT_COPIED) return NOT_COPIED;
          copy[index] = itemCopy;
        }
        return copy;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return NOT_COPIED;
      const record = value as Record<string, unknown>;
      const copy: Record<string, unknown> = {};
      for (const key of sortedKeys(record)) {
        const member = record[key];
        if (member === undefined) continue;
        if (!key.isWellFormed() || key === '__proto__' || isIndexLike(key)) return NOT_COPIED;
        const memberCopy = sortedCopy(member, depth + 1);
        if (memberCopy === NOT_COPIED) return NOT_COPIED;
        copy[key] = memberCopy;
      }
      return copy;
    }
    default:
      return NOT_COPIED;
  }
}

/**
 * Own enumerable keys in UTF-16 code-unit order (the order RFC 8785 asks for, and what `<`
 * compares). An insertion sort: objects in events have a handful of keys, where it is several
 * times cheaper than Array.prototype.sort.
 */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index]!;
    let at = index - 1;
    while (at >= 0 && keys[at]! > key) {
      keys[at + 1] = keys[at]!;
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}

function encode(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed()) throw new PathedProblem(LONE_SURROGATE_PROBLEM);
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
  const keys = sortedKeys(record);
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    if (!key.isWellFormed()) throw new PathedProblem(`has a key that ${LONE_SURROGATE_PROBLEM}`);
    try {
      out += `${JSON.stringify(key)}:${encode(member, depth + 1)}`;
    } catch (error) {
      if (error instanceof PathedProblem) error.path = `.${key}${error.path}`;
      throw error;
    }
  }
  return `${out}}`;
}

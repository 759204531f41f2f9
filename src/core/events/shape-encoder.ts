import { canonicalMemberJson } from './canonical-json.js';

/**
 * Writes the canonical JSON text of a plain object, or returns undefined for one it does not take
 * (see createShapeEncoder); the caller then uses `canonicalJson`, which gives the same text or
 * names the problem.
 */
export type ShapeEncoder = (record: object) => string | undefined;

/**
 * A canonical encoder for objects that keep coming with the same keys in the same order, as the
 * payloads of one event type do (its schema builds each one in its shape's order). The sorted
 * order and the quoted keys are worked out once per key order, not for every object, and no
 * sorted copy is built: the object's own level is written here, member by member, and only
 * nested objects and arrays go through the general encoder. The text is `canonicalJson`'s (a
 * property test proves it); anything it does not take (another prototype, a lone surrogate, a
 * number JSON has no form for, a `__proto__` key, a function) is left to `canonicalJson`.
 */
export function createShapeEncoder(): ShapeEncoder {
  // The last key order seen (as Object.keys lists it), its members' positions in sorted order,
  // and each sorted member's `"key":`.
  let knownKeys: readonly string[] = [];
  let sortedAt: readonly number[] = [];
  let quotedKeys: readonly string[] = [];

  function learn(keys: readonly string[]): boolean {
    for (const key of keys) if (key === '__proto__' || !key.isWellFormed()) return false;
    const order = keys.map((_, index) => index);
    // UTF-16 code-unit order, as canonicalJson sorts (`<` on strings); keys are distinct.
    order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
    knownKeys = keys;
    sortedAt = order;
    quotedKeys = order.map((index) => `${JSON.stringify(keys[index])}:`);
    return true;
  }

  return (record) => {
    const prototype = Object.getPrototypeOf(record) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    const keys = Object.keys(record);
    if (!sameKeys(keys, knownKeys) && !learn(keys)) return undefined;
    const members = record as Record<string, unknown>;
    let out = '{';
    for (let at = 0; at < sortedAt.length; at++) {
      const value = members[keys[sortedAt[at]!]!];
      if (value === undefined) continue;
      const text = memberText(value);
      if (text === undefined) return undefined;
      out += out.length === 1 ? quotedKeys[at]! + text : `,${quotedKeys[at]!}${text}`;
    }
    return `${out}}`;
  };
}

function sameKeys(keys: readonly string[], known: readonly string[]): boolean {
  if (keys.length !== known.length) return false;
  for (let index = 0; index < keys.length; index++) if (keys[index] !== known[index]) return false;
  return true;
}

/** A member's canonical text, or undefined where canonicalJson would not take its fast path. */
function memberText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed() ? JSON.stringify(value) : undefined;
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? 'null' : canonicalMemberJson(value);
    default:
      return undefined;
  }
}

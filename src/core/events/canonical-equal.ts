import { canonicalJson } from './canonical-json.js';

/**
 * Whether two values have the same canonical JSON text, without writing either text: what
 * replay asks of every recorded event, so it walks both values once instead of encoding two
 * strings per event. It follows `canonicalJson`'s rules (key order does not matter, a property
 * that is `undefined` is absent, an `undefined` array item is `null`, 0 and -0 are alike);
 * anything else without a plain JSON form (NaN, a class instance, a bigint) is compared through
 * `canonicalJson` itself, which throws as it always did. Strings compare as text: a lone
 * surrogate, which `canonicalJson` refuses, is not looked for (a recorded event's strings were
 * checked when it was appended).
 */
export function canonicallyEqual(left: unknown, right: unknown): boolean {
  if (left === right) return typeof left !== 'number' || Number.isFinite(left) || fallback();
  const leftType = typeof left;
  if (leftType !== typeof right || leftType !== 'object' || left === null || right === null)
    return isPlainScalar(left) && isPlainScalar(right) ? false : fallback();
  if (Array.isArray(left)) {
    if (!Array.isArray(right)) return false;
    if (left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++)
      if (!canonicallyEqual(left[index] ?? null, right[index] ?? null)) return false;
    return true;
  }
  if (Array.isArray(right) || !isPlainObject(left as object) || !isPlainObject(right as object))
    return fallback();
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  let defined = 0;
  for (const key of Object.keys(leftRecord)) {
    const member = leftRecord[key];
    if (member === undefined) continue;
    defined += 1;
    if (!Object.hasOwn(rightRecord, key) || !canonicallyEqual(member, rightRecord[key]))
      return false;
  }
  for (const key of Object.keys(rightRecord)) if (rightRecord[key] !== undefined) defined -= 1;
  return defined === 0;

  function fallback(): boolean {
    return canonicalJson(left) === canonicalJson(right);
  }
}

function isPlainScalar(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'boolean' ||
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

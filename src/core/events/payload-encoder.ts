import type { z } from 'zod';
import { canonicalJson, canonicalJsonAt, MAX_CANONICAL_DEPTH } from './canonical-json.js';

/**
 * Canonical JSON of an event payload by its shape. A payload type's schema says which keys its
 * objects have, so their sorted order is worked out once, when its encoder is compiled, instead
 * of once per object per event (`canonicalJson` copies every object with its keys sorted). The
 * text is exactly `canonicalJson(payload)`'s, whatever the value (property tests over every
 * catalog type and the golden corpus pin it): a value that does not look the way its schema
 * says (another type, a key the schema does not name, a key present as undefined) is encoded by
 * `canonicalJson` from that point down, and a value that has no canonical form at all (a lone
 * surrogate, NaN, nesting deeper than canonicalJson allows) is handed whole to `canonicalJson`,
 * which names the problem exactly as it always did.
 */
export type PayloadEncoder = (payload: unknown) => string;

/** An encoder for values of `schema`. Compiled once per schema and shared. */
export function payloadEncoder(schema: z.ZodType): PayloadEncoder {
  let compiled = compiledBySchema.get(schema);
  if (compiled === undefined) {
    compiled = compile(schema, new Set());
    compiledBySchema.set(schema, compiled);
  }
  const encode = compiled;
  return (payload) => {
    try {
      return encode(payload, 0);
    } catch (error) {
      if (error !== NOT_ENCODED) throw error;
      return canonicalJson(payload);
    }
  };
}

type Encode = (value: unknown, depth: number) => string;

const compiledBySchema = new WeakMap<z.ZodType, Encode>();

/** Thrown inside an encoder when the value has no canonical form; the caller starts over generically. */
const NOT_ENCODED = Symbol('not encoded');

// The parts of a zod 4 schema's definition the compiler reads.
type Definition = {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly innerType?: z.ZodType;
};

const definitionOf = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { def: Definition } })._zod.def;

function compile(schema: z.ZodType, compiling: Set<z.ZodType>): Encode {
  // A schema that refers back to itself (z.lazy) is left to the general encoder.
  if (compiling.has(schema)) return general;
  compiling.add(schema);
  try {
    const definition = definitionOf(schema);
    switch (definition.type) {
      case 'object':
        return compileObject(definition, compiling);
      case 'array':
        return definition.element === undefined
          ? general
          : compileArray(compile(definition.element, compiling));
      case 'record':
        return definition.valueType === undefined
          ? general
          : compileRecord(compile(definition.valueType, compiling));
      // Wrappers whose output is their inner schema's output (or undefined / null, which every
      // encoder takes as it comes).
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'nonoptional':
        return definition.innerType === undefined
          ? general
          : compile(definition.innerType, compiling);
      default:
        return general;
    }
  } finally {
    compiling.delete(schema);
  }
}

/** Any value, encoded as canonicalJson would at `depth`: scalars here, the rest by canonicalJson. */
function general(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed()) throw NOT_ENCODED;
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw NOT_ENCODED;
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const text = canonicalJsonAt(value, depth);
      if (text === undefined) throw NOT_ENCODED;
      return text;
    }
    default:
      throw NOT_ENCODED;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function compileObject(definition: Definition, compiling: Set<z.ZodType>): Encode {
  const shape = definition.shape;
  // An object that may hold keys its shape does not name is sorted per value, generally.
  const catchall =
    definition.catchall === undefined ? 'never' : definitionOf(definition.catchall).type;
  if (shape === undefined || catchall !== 'never') return general;
  // UTF-16 code-unit order, as canonicalJson sorts. A key an object inherits from
  // Object.prototype ("constructor"...) is read by canonicalJson only as its own: left to it.
  const keys = Object.keys(shape).sort();
  if (keys.some((key) => !key.isWellFormed() || key in Object.prototype)) return general;
  const names = keys.map((key) => `${JSON.stringify(key)}:`);
  const encoders = keys.map((key) => compile(shape[key]!, compiling));
  const count = keys.length;
  return (value, depth) => {
    if (!isPlainObject(value) || depth >= MAX_CANONICAL_DEPTH) return general(value, depth);
    // Every key the object has must be one the shape names (and be defined): counted, not
    // listed, since listing is what this saves. Otherwise the object is sorted generally.
    let own = 0;
    for (const key in value) own += Object.hasOwn(value, key) ? 1 : count + 1;
    let out = '{';
    let present = 0;
    for (let index = 0; index < count; index++) {
      const member = value[keys[index]!];
      if (member === undefined) continue;
      out += `${present === 0 ? '' : ','}${names[index]!}${encoders[index]!(member, depth + 1)}`;
      present += 1;
    }
    if (own !== present) return general(value, depth);
    return `${out}}`;
  };
}

function compileArray(item: Encode): Encode {
  return (value, depth) => {
    if (!Array.isArray(value) || depth >= MAX_CANONICAL_DEPTH) return general(value, depth);
    const items = value as readonly unknown[];
    let out = '[';
    for (let index = 0; index < items.length; index++) {
      const member = items[index];
      out += `${index === 0 ? '' : ','}${member === undefined ? 'null' : item(member, depth + 1)}`;
    }
    return `${out}]`;
  };
}

function compileRecord(member: Encode): Encode {
  return (value, depth) => {
    if (!isPlainObject(value) || depth >= MAX_CANONICAL_DEPTH) return general(value, depth);
    let out = '{';
    let first = true;
    for (const key of Object.keys(value).sort()) {
      const item = value[key];
      if (item === undefined) continue;
      if (!key.isWellFormed()) throw NOT_ENCODED;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${member(item, depth + 1)}`;
      first = false;
    }
    return `${out}}`;
  };
}

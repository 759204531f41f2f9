/**
 * Bounds above this many repetitions are left out of what a server sees. llama.cpp compiles a
 * schema into a grammar where `maxLength: 4096` becomes `char{1,4096}`; past its limit it logs
 * "number of repetitions exceeds sane defaults" and drops the grammar, so calls go unconstrained.
 */
export const MAX_WIRE_REPETITION = 64;

const REPETITION_KEYS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
];

/**
 * A JSON Schema as sent to a model server: the same shape without large repetition bounds and
 * without the `$schema` dialect. The limits stay in correx's own validation, which checks every
 * call against the full schema before anything runs, so this loosens only what a server
 * constrains, never what correx accepts.
 */
export function toWireSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toWireSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === '$schema') continue;
    if (REPETITION_KEYS.includes(key) && typeof value === 'number' && value > MAX_WIRE_REPETITION)
      continue;
    // Property names are data, not keywords: recurse into each schema, keep each name.
    out[key] =
      key === 'properties' && typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toWireSchema(sub)]))
        : toWireSchema(value);
  }
  return out;
}

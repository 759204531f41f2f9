import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { correxEventCatalog } from './event-catalog.js';

/*
 * The live runner keeps the state `decide` folded from the payloads it emitted, where replay folds
 * the same events as the store returns them (normalized by the catalog). The two agree because
 * normalizing a payload keeps its JSON content: validation may drop an `undefined` member or order
 * keys, but no event schema fills a default, transforms, coerces or catches. This walks every
 * schema of the catalog and names any part that would change what a payload says.
 */

/** Schema kinds whose output is not their input's JSON content. */
const CHANGING = new Set(['default', 'prefault', 'transform', 'pipe', 'catch', 'success']);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
  catchall?: z.ZodType;
};

function changingParts(schema: z.ZodType, path: string, seen: Set<z.ZodType>): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (CHANGING.has(def.type)) return [`${path} (${def.type})`];
  const children: [string, z.ZodType][] = [];
  for (const [key, child] of Object.entries(def.shape ?? {}))
    children.push([`${path}.${key}`, child]);
  if (def.innerType) children.push([path, def.innerType]);
  if (def.element) children.push([`${path}[]`, def.element]);
  for (const option of def.options ?? []) children.push([`${path}|`, option]);
  for (const item of def.items ?? []) children.push([`${path}[n]`, item]);
  if (def.rest) children.push([`${path}[...]`, def.rest]);
  if (def.keyType) children.push([`${path}{key}`, def.keyType]);
  if (def.valueType) children.push([`${path}{value}`, def.valueType]);
  if (def.left) children.push([path, def.left]);
  if (def.right) children.push([path, def.right]);
  if (def.catchall) children.push([`${path}.*`, def.catchall]);
  if (def.getter) children.push([path, def.getter()]);
  return children.flatMap(([at, child]) => changingParts(child, at, seen));
}

describe('event payload normalization', () => {
  it('keeps what every payload says: no event schema fills, transforms or catches', () => {
    const found = [...correxEventCatalog.definitions.values()].flatMap((definition) =>
      changingParts(definition.schema, definition.type, new Set()),
    );
    expect(found).toEqual([]);
    expect(correxEventCatalog.definitions.size).toBeGreaterThan(50);
  });

  it('finds a default, a transform and a catch where a schema has one', async () => {
    const { z } = await import('zod');
    const schema = z.strictObject({
      a: z.array(z.strictObject({ b: z.string().default('x') })),
      c: z.lazy(() => z.string().transform((text) => text.trim())).optional(),
      d: z.union([z.number(), z.number().catch(0)]),
    });
    expect(changingParts(schema, 'p', new Set())).toEqual([
      'p.a[].b (default)',
      'p.c (pipe)',
      'p.d| (catch)',
    ]);
  });
});

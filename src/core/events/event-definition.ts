import { z } from 'zod';
import type { JsonObject } from './canonical-json.js';

/** Upgrades a payload stored at `fromVersion` to `fromVersion + 1`. Pure. */
export type Upcaster = {
  readonly fromVersion: number;
  upcast(payload: JsonObject): JsonObject;
};

/**
 * One event payload type: its serial name, the version new events are written at, the zod
 * schema of that version and the upcasters that bring older stored versions up to it.
 * Defined once by the module that owns the event; listed once in `core/event-catalog.ts`.
 */
export type EventDefinition<Type extends string = string, Payload = unknown> = {
  readonly type: Type;
  readonly version: number;
  readonly description: string;
  readonly schema: z.ZodType<Payload>;
  readonly upcasters: readonly Upcaster[];
};

/** The payload type a definition describes. */
export type PayloadOf<Definition> = Definition extends EventDefinition<string, infer P> ? P : never;

type DefineEventSpec<Type extends string, Shape extends z.ZodRawShape> = {
  readonly type: Type;
  readonly description: string;
  readonly fields: Shape;
  readonly version?: number;
  readonly upcasters?: readonly Upcaster[];
};

/**
 * Defines a payload type. The schema is strict (an unknown key is an error, not silently
 * dropped) and carries `type` as a literal, so payloads form a discriminated union.
 */
export function defineEvent<const Type extends string, Shape extends z.ZodRawShape>(
  spec: DefineEventSpec<Type, Shape>,
) {
  const version = spec.version ?? 1;
  const upcasters = [...(spec.upcasters ?? [])].sort((a, b) => a.fromVersion - b.fromVersion);
  upcasters.forEach((upcaster, index) => {
    if (upcaster.fromVersion !== index + 1 || upcaster.fromVersion >= version) {
      throw new RangeError(
        `event ${spec.type} v${version}: upcasters must cover versions 1..${version - 1} once each`,
      );
    }
  });
  if (upcasters.length !== version - 1) {
    throw new RangeError(`event ${spec.type} v${version}: expected ${version - 1} upcasters`);
  }
  const schema = z.strictObject({ type: z.literal(spec.type), ...spec.fields });
  return {
    type: spec.type,
    version,
    description: spec.description,
    schema,
    upcasters,
  } satisfies EventDefinition<Type, z.infer<typeof schema>>;
}

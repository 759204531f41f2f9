import { z } from 'zod';
import type { JsonObject } from './canonical-json.js';

/** Upgrades a payload stored at `fromVersion` to `fromVersion + 1`. Pure. */
export type Upcaster = {
  readonly fromVersion: number;
  upcast(payload: JsonObject): JsonObject;
};

/**
 * Where an event comes from. A `command` enters from outside the decider (a person, the CLI,
 * another process, or the runner recording a fact about itself); an `effect_result` records what
 * an effect did (a model's answer, a receipt); a `decision` is derived by `decide` from the
 * events before it, and is what replay re-derives and compares.
 */
export type EventOrigin = 'command' | 'effect_result' | 'decision';

// Method syntax: a definition for one payload type stays assignable to `EventDefinition`.
type OriginOfPayload<Payload> = { of(payload: Payload): EventOrigin }['of'];

/**
 * One event payload type: its serial name, the version new events are written at, the zod
 * schema of that version, the upcasters that bring older stored versions up to it, and its
 * origin. Defined once by the module that owns the event; listed once in `core/event-catalog.ts`.
 */
export type EventDefinition<Type extends string = string, Payload = unknown> = {
  readonly type: Type;
  readonly version: number;
  readonly description: string;
  readonly schema: z.ZodType<Payload>;
  readonly upcasters: readonly Upcaster[];
  /** Fixed for most types; a function where the payload says (a person's approval, or the engine's). */
  readonly origin: EventOrigin | OriginOfPayload<Payload>;
};

/** The payload type a definition describes. */
export type PayloadOf<Definition> = Definition extends EventDefinition<string, infer P> ? P : never;

type DefineEventSpec<Type extends string, Shape extends z.ZodRawShape> = {
  readonly type: Type;
  readonly description: string;
  readonly origin:
    | EventOrigin
    | ((payload: z.infer<z.ZodObject<Shape & { type: z.ZodLiteral<Type> }>>) => EventOrigin);
  /**
   * The payload's fields, besides `type`. A function is called once, the first time the schema
   * is used, so a process that never reads or writes an event type never builds its schema
   * (a short command such as `correx sessions` reads a handful of the catalog's types).
   */
  readonly fields: Shape | (() => Shape);
  readonly version?: number;
  readonly upcasters?: readonly Upcaster[];
};

/**
 * Defines a payload type. The schema is strict (an unknown key is an error, not silently
 * dropped) and carries `type` as a literal, so payloads form a discriminated union. It is built
 * on first use of `schema` and kept: the same schema, whenever it is built.
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
  const { fields } = spec;
  const build = () =>
    z.strictObject({
      type: z.literal(spec.type),
      ...(typeof fields === 'function' ? fields() : fields),
    });
  type Schema = ReturnType<typeof build>;
  let schema: Schema | undefined;
  return {
    type: spec.type,
    version,
    description: spec.description,
    get schema(): Schema {
      schema ??= build();
      return schema;
    },
    upcasters,
    origin: spec.origin as EventOrigin | OriginOfPayload<z.infer<Schema>>,
  } satisfies EventDefinition<Type, z.infer<Schema>>;
}

/** The origin of a payload under its definition. */
export function originOf<Payload>(
  definition: EventDefinition<string, Payload>,
  payload: Payload,
): EventOrigin {
  return typeof definition.origin === 'function' ? definition.origin(payload) : definition.origin;
}

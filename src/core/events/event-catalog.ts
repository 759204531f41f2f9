import type { EventDefinition, PayloadOf } from './event-definition.js';
import type { JsonObject } from './canonical-json.js';
import type { PayloadShape } from './event-envelope.js';

/** Why a payload could not be read; the codec turns this into a named error with context. */
export type PayloadProblem = {
  readonly reason: 'unknown_type' | 'schema';
  readonly detail: string;
};

export type PayloadResult<Payload> =
  | { readonly ok: true; readonly payload: Payload }
  | { readonly ok: false; readonly problem: PayloadProblem };

/**
 * The set of payload types a store and codec understand, built from an explicit list of
 * definitions (no registry filled by import side effects).
 */
export type EventCatalog<Payload extends PayloadShape = PayloadShape> = {
  readonly definitions: ReadonlyMap<string, EventDefinition>;
  /** The version new events of `type` are written at, or undefined for an unknown type. */
  currentVersion(type: string): number | undefined;
  /** Upcasts a payload stored at `version` to the current version and validates it. */
  safeParsePayload(raw: JsonObject & PayloadShape, version: number): PayloadResult<Payload>;
};

/** Builds a catalog; a type defined twice is a programming error. */
export function createEventCatalog<const Definitions extends readonly EventDefinition[]>(
  definitions: Definitions,
): EventCatalog<PayloadOf<Definitions[number]> & PayloadShape> {
  type Payload = PayloadOf<Definitions[number]> & PayloadShape;
  const byType = new Map<string, EventDefinition>();
  for (const definition of definitions) {
    if (byType.has(definition.type))
      throw new RangeError(`event type defined twice: ${definition.type}`);
    byType.set(definition.type, definition);
  }
  return {
    definitions: byType,
    currentVersion: (type) => byType.get(type)?.version,
    safeParsePayload(raw, version) {
      const definition = byType.get(raw.type);
      if (!definition)
        return {
          ok: false,
          problem: { reason: 'unknown_type', detail: `unknown event type "${raw.type}"` },
        };
      if (!Number.isInteger(version) || version < 1 || version > definition.version) {
        return {
          ok: false,
          problem: {
            reason: 'schema',
            detail: `${raw.type} has no version ${version} (current is ${definition.version})`,
          },
        };
      }
      let current: JsonObject = raw;
      for (const upcaster of definition.upcasters) {
        if (upcaster.fromVersion >= version) current = upcaster.upcast(current);
      }
      const parsed = definition.schema.safeParse(current);
      if (!parsed.success) {
        return {
          ok: false,
          problem: { reason: 'schema', detail: describeIssues(raw.type, parsed.error.issues) },
        };
      }
      return { ok: true, payload: parsed.data as Payload };
    },
  };
}

function describeIssues(
  type: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `${type} payload invalid: ${parts.join('; ')}${more}`;
}

import { correxEventCatalog, type EventPayload } from '../../event-catalog.js';
import { originOf, type EventOrigin } from '../../events/event-definition.js';
import type { PayloadShape } from '../../events/event-envelope.js';

/** Where a recorded payload came from, as its definition declares (see `EventOrigin`). */
export function eventOrigin(payload: PayloadShape): EventOrigin {
  const definition = correxEventCatalog.definitions.get(payload.type);
  // A type outside the catalog never reaches the kernel: the codec refuses it on read.
  if (definition === undefined) return 'command';
  return originOf(definition, payload as EventPayload);
}

/**
 * Whether a payload entered from outside `decide` (a command, or an effect's result) rather than
 * being derived by it. Everything else in a kernel-run session is what replay re-derives.
 */
export function isInputEvent(payload: PayloadShape): boolean {
  return eventOrigin(payload) !== 'decision';
}

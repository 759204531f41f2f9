/**
 * The only way fresh ids enter correx. Ids the kernel derives from recorded data do not come
 * from here; an IdSource is for values that are new in the world (a session id, an event id
 * stamped by the runner) and are then recorded.
 */
export type IdSource = {
  next(): string;
};

/** `prefix-000001`, `prefix-000002`, ...: deterministic, sortable ids for tests and demos. */
export function createCountingIdSource(prefix = 'id'): IdSource {
  let counter = 0;
  return {
    next() {
      counter += 1;
      return `${prefix}-${String(counter).padStart(6, '0')}`;
    },
  };
}

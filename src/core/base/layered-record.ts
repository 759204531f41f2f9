/**
 * A string-keyed record that a fold can change without copying it whole: a base record and a
 * small record of recent changes, folded into a new base once the recent part outgrows the
 * square root of the base. A change copies about √n entries (amortized) instead of n, so a
 * projection keyed by path costs the same per event however many paths a session has seen.
 * Keys keep a plain record's order (as if every change were made to one object), and it is
 * plain data: it serializes and compares like the rest of a state.
 */
export type LayeredRecord<V> = {
  readonly base: Readonly<Record<string, V>>;
  readonly baseSize: number;
  /** Entries set since `base` was built; they shadow base entries of the same key. */
  readonly recent: Readonly<Record<string, V>>;
  readonly recentSize: number;
};

/** A layered record holding `entries` (none by default). */
export function layeredRecord<V = never>(
  entries: Readonly<Record<string, V>> = {},
): LayeredRecord<V> {
  const base = { ...entries };
  return { base, baseSize: Object.keys(base).length, recent: {}, recentSize: 0 };
}

export function layeredHas<V>(record: LayeredRecord<V>, key: string): boolean {
  return Object.hasOwn(record.recent, key) || Object.hasOwn(record.base, key);
}

export function layeredGet<V>(record: LayeredRecord<V>, key: string): V | undefined {
  if (Object.hasOwn(record.recent, key)) return record.recent[key];
  return Object.hasOwn(record.base, key) ? record.base[key] : undefined;
}

/** `record` with `key` set to `value`. */
export function layeredSet<V>(record: LayeredRecord<V>, key: string, value: V): LayeredRecord<V> {
  const known = Object.hasOwn(record.recent, key);
  const recent = { ...record.recent, [key]: value };
  const recentSize = known ? record.recentSize : record.recentSize + 1;
  if (recentSize <= 8 + Math.sqrt(record.baseSize))
    return { base: record.base, baseSize: record.baseSize, recent, recentSize };
  return layeredRecord({ ...record.base, ...recent });
}

/**
 * `record` with every `[key, value]` of `entries` set, in order: what that many `layeredSet`s
 * give, for one copy of the recent part instead of one per key (a fold that adds many keys at
 * once, like a manifest's new items, would otherwise copy √n entries per key).
 */
export function layeredSetAll<V>(
  record: LayeredRecord<V>,
  entries: readonly (readonly [string, V])[],
): LayeredRecord<V> {
  if (entries.length === 0) return record;
  const recent: Record<string, V> = { ...record.recent };
  let recentSize = record.recentSize;
  for (const [key, value] of entries) {
    if (!Object.hasOwn(recent, key)) recentSize += 1;
    recent[key] = value;
  }
  if (recentSize <= 8 + Math.sqrt(record.baseSize))
    return { base: record.base, baseSize: record.baseSize, recent, recentSize };
  return layeredRecord({ ...record.base, ...recent });
}

/** `record` without `key` (itself when it has none). */
export function layeredDelete<V>(record: LayeredRecord<V>, key: string): LayeredRecord<V> {
  if (Object.hasOwn(record.base, key)) {
    // A plain record forgets a deleted key's place: so does the base it is folded out of.
    const merged: Record<string, V> = { ...record.base, ...record.recent };
    delete merged[key];
    return layeredRecord(merged);
  }
  if (!Object.hasOwn(record.recent, key)) return record;
  const recent: Record<string, V> = { ...record.recent };
  delete recent[key];
  return {
    base: record.base,
    baseSize: record.baseSize,
    recent,
    recentSize: record.recentSize - 1,
  };
}

/** The entries as one plain record, in a plain record's key order. */
export function layeredEntries<V>(record: LayeredRecord<V>): Readonly<Record<string, V>> {
  return record.recentSize === 0 ? record.base : { ...record.base, ...record.recent };
}

/**
 * correx's public library surface. Explicit named exports only: what is not listed here is
 * internal. Each module keeps its own block.
 */

// --- base ---
export { CorrexError } from './core/base/correx-error.js';
export { type Clock, createFixedClock, createSteppingClock } from './core/base/clock.js';
export { type IdSource, createCountingIdSource } from './core/base/id-source.js';
export { type Sha256, sha256Hex } from './core/base/sha256.js';

// --- events ---
export {
  canonicalJson,
  type JsonValue,
  type JsonObject,
  NonCanonicalValueError,
} from './core/events/canonical-json.js';
export {
  defineEvent,
  type EventDefinition,
  type Upcaster,
  type PayloadOf,
} from './core/events/event-definition.js';
export { createEventCatalog, type EventCatalog } from './core/events/event-catalog.js';
export { createEventCodec, type EventCodec } from './core/events/event-codec.js';
export type {
  NewEvent,
  EventEnvelope,
  StoredEvent,
  PayloadShape,
} from './core/events/event-envelope.js';
export type {
  EventStore,
  AppendOptions,
  ReadOptions,
  ReadAllOptions,
  SubscribeOptions,
  SubscriptionMessage,
  SessionSummary,
} from './core/events/event-store.js';
export { GENESIS_HASH, type ChainVerification } from './core/events/hash-chain.js';
export { ConcurrencyError } from './core/events/concurrency-error.js';
export { DuplicateEventError } from './core/events/duplicate-event-error.js';
export { InvalidEventError, InvalidAppendError } from './core/events/invalid-event-error.js';
export { CorruptEventError, type CorruptionReason } from './core/events/corrupt-event-error.js';
export { StoreClosedError } from './core/events/store-closed-error.js';
export {
  InMemoryEventStore,
  createInMemoryEventStore,
} from './core/events/in-memory-event-store.js';
export type { Projection } from './core/events/projection.js';
export {
  replay,
  replayAndSnapshot,
  type ReplayResult,
  type ReplayOptions,
} from './core/events/replay.js';
export type { Snapshot, SnapshotStore } from './core/events/snapshot-store.js';
export { createInMemorySnapshotStore } from './core/events/in-memory-snapshot-store.js';
export {
  correxEventCatalog,
  eventDefinitions,
  type EventPayload,
  type CorrexEvent,
  type CorrexEventStore,
} from './core/event-catalog.js';
export {
  SqliteEventStore,
  openSqliteEventStore,
  type SqliteEventStoreOptions,
} from './infrastructure/sqlite/sqlite-event-store.js';
export {
  SqliteSnapshotStore,
  openSqliteSnapshotStore,
} from './infrastructure/sqlite/sqlite-snapshot-store.js';
export {
  SqliteOpenError,
  type SqliteOptions,
  type SqliteSynchronous,
} from './infrastructure/sqlite/sqlite-database.js';
export { systemClock } from './infrastructure/system/system-clock.js';
export { createUuidV7IdSource } from './infrastructure/system/uuid-v7-id-source.js';
export { nodeSha256 } from './infrastructure/system/node-sha256.js';

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { correxEventCatalog, type EventPayload } from '../src/core/event-catalog.js';
import type { Projection } from '../src/core/events/projection.js';
import { replay, replayAndSnapshot } from '../src/core/events/replay.js';
import { openSqliteEventStore } from '../src/infrastructure/sqlite/sqlite-event-store.js';
import { openSqliteSnapshotStore } from '../src/infrastructure/sqlite/sqlite-snapshot-store.js';
import type { SqliteSynchronous } from '../src/infrastructure/sqlite/sqlite-database.js';
import { normalizeBatch, sealBatch } from '../src/core/events/append-batch.js';
import { createEventCodec } from '../src/core/events/event-codec.js';
import { GENESIS_HASH } from '../src/core/events/hash-chain.js';
import { nodeSha256 } from '../src/infrastructure/system/node-sha256.js';
import { benchEvent, rawEventRow, type RawEventRow } from './bench-events.js';
import { openReadPasses } from './read-passes.js';
import { compare, measure, row, type BenchRow } from './bench-table.js';

const codec = createEventCodec(correxEventCatalog);

function openRaw(path: string, synchronous: SqliteSynchronous) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.exec(`CREATE TABLE raw_events (
    position INTEGER PRIMARY KEY, session_id TEXT NOT NULL, sequence INTEGER NOT NULL,
    event_id TEXT NOT NULL UNIQUE, bytes TEXT NOT NULL, UNIQUE (session_id, sequence))`);
  const insert = db.prepare(
    'INSERT INTO raw_events (session_id, sequence, event_id, bytes) VALUES (@sessionId, @sequence, @eventId, @bytes)',
  );
  return {
    db,
    insertOne: db.transaction((r: RawEventRow) => insert.run(r)),
    insertMany: db.transaction((rs: RawEventRow[]) => {
      for (const r of rs) insert.run(r);
    }),
  };
}

async function singleAppends(
  dir: string,
  synchronous: SqliteSynchronous,
  count: number,
): Promise<BenchRow[]> {
  const raw = openRaw(join(dir, `raw-single-${synchronous}.db`), synchronous);
  const rows = Array.from({ length: count }, (_, i) => rawEventRow('raw', i + 1));
  const store = openSqliteEventStore(join(dir, `store-single-${synchronous}.db`), {
    catalog: correxEventCatalog,
    synchronous,
  });
  const events = Array.from({ length: count }, (_, i) => benchEvent('s', i + 1));
  // The floor for any store that keeps the guarantees: the raw insert of bytes made per event
  // as the store makes them (envelope and payload checked, canonical bytes, chained hash).
  // After a FULL commit's fsync this work runs on a cold CPU, several times its warm cost.
  const checked = openRaw(join(dir, `raw-checked-single-${synchronous}.db`), synchronous);
  let previous = { sequence: 0, hash: GENESIS_HASH };
  const insertChecked = (i: number) => {
    const [sealed] = sealBatch(codec, nodeSha256, normalizeBatch(codec, [events[i]!]), previous);
    previous = { sequence: sealed!.sequence, hash: sealed!.hash };
    checked.insertOne({
      sessionId: sealed!.sessionId,
      sequence: sealed!.sequence,
      eventId: sealed!.eventId,
      bytes: sealed!.bytes,
    });
  };
  const result = await compare({
    perRound: count / 5,
    baseline: (i) => raw.insertOne(rows[i]!),
    subject: (i) => store.append(events[i]!, { expectedSequence: i }),
    others: [insertChecked],
  });
  raw.db.close();
  checked.db.close();
  await store.close();
  const baseline = row(`raw insert, 1 row/tx (${synchronous})`, result.baseline, 'events/s');
  return [
    baseline,
    row(`append, 1 event (${synchronous})`, result.subject, 'events/s', baseline),
    row(
      `raw insert of checked, encoded, hashed bytes (${synchronous})`,
      result.others[0]!,
      'events/s',
      baseline,
    ),
  ];
}

async function batchAppends(
  dir: string,
  synchronous: SqliteSynchronous,
  batches: number,
): Promise<BenchRow[]> {
  const raw = openRaw(join(dir, `raw-batch-${synchronous}.db`), synchronous);
  const rawBatches = Array.from({ length: batches }, (_, b) =>
    Array.from({ length: 100 }, (_, i) => rawEventRow('raw', b * 100 + i + 1)),
  );
  const store = openSqliteEventStore(join(dir, `store-batch-${synchronous}.db`), {
    catalog: correxEventCatalog,
    synchronous,
  });
  const eventBatches = Array.from({ length: batches }, (_, b) =>
    Array.from({ length: 100 }, (_, i) => benchEvent('s', b * 100 + i + 1)),
  );
  const result = await compare({
    perRound: batches / 5,
    baseline: (b) => raw.insertMany(rawBatches[b]!),
    subject: (b) => store.appendAll(eventBatches[b]!, { expectedSequence: b * 100 }),
  });
  raw.db.close();
  await store.close();
  const baseline = row(
    `raw insert, 100 rows/tx (${synchronous})`,
    result.baseline * 100,
    'events/s',
  );
  return [
    baseline,
    row(`appendAll, 100 events (${synchronous})`, result.subject * 100, 'events/s', baseline),
  ];
}

type Counts = { events: number; tools: Record<string, number> };
const counting: Projection<Counts, EventPayload> = {
  name: 'bench-counts',
  version: 1,
  initial: () => ({ events: 0, tools: {} }),
  evolve(state, event) {
    if (event.payload.type !== 'tool_call_proposed') return { ...state, events: state.events + 1 };
    const tool = event.payload.tool;
    return {
      events: state.events + 1,
      tools: { ...state.tools, [tool]: (state.tools[tool] ?? 0) + 1 },
    };
  },
};

async function reads(dir: string, total: number): Promise<BenchRow[]> {
  const path = join(dir, 'read.db');
  const read = await openReadPasses(path, total);
  const { store } = read;
  // Seven passes a side: with three, one run's ratio swung from 0.49 to 0.72.
  const passes = await compare({
    rounds: 7,
    perRound: 1,
    warmUpRounds: 1,
    baseline: read.raw,
    subject: read.stream,
    others: [read.verify, read.rawHashed],
  });
  const baseline = row(
    `raw read + JSON.parse, ${total.toLocaleString('en-US')} events`,
    passes.baseline * total,
    'events/s',
  );
  const streamed = passes.subject;
  const rebuild = await measure(1, () => replay(store, counting, 'big'));
  const snapshots = openSqliteSnapshotStore(path);
  // Snapshot at 99% of the log, then measure the rebuild that starts from it.
  const cut = Math.floor(total * 0.99);
  const head = await replay(store, counting, 'big', {
    from: { state: counting.initial(), sequence: 0 },
  });
  await snapshots.save({
    sessionId: 'big',
    projection: counting.name,
    projectionVersion: 1,
    sequence: cut,
    state: { ...head.state, events: cut },
  });
  const withSnapshot = await measure(1, () => replay(store, counting, 'big', { snapshots }));
  await replayAndSnapshot(store, counting, 'big', snapshots);
  await snapshots.close();
  await read.close();
  return [
    baseline,
    row('stream + decode + verify chain', streamed * total, 'events/s', baseline),
    row(
      'verify() (every stored hash, full-schema decode)',
      passes.others[0]! * total,
      'events/s',
      baseline,
    ),
    row(
      'raw read + JSON.parse + SHA-256 chain of the hashed bytes (the hashing verify must add)',
      passes.others[1]! * total,
      'events/s',
      baseline,
    ),
    row(`projection rebuild from scratch`, rebuild * total, 'events/s', baseline),
    row(
      `projection rebuild from a snapshot at ${cut.toLocaleString('en-US')}`,
      withSnapshot * total,
      'events/s',
      baseline,
    ),
  ];
}

export async function runEventStoreBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'correx-bench-'));
  const scale = options.quick ? 0.1 : 1;
  // Each of a comparison's five rounds spans several WAL checkpoints (one per ~1000 pages
  // written) on both sides: with rounds shorter than that, whichever side a checkpoint fell on
  // lost, and the ratio of one run swung between 0.55 and 0.80.
  try {
    return [
      ...(await singleAppends(dir, 'full', Math.round(5000 * scale))),
      ...(await singleAppends(dir, 'normal', Math.round(20000 * scale))),
      ...(await batchAppends(dir, 'full', Math.round(1000 * scale))),
      ...(await batchAppends(dir, 'normal', Math.round(1000 * scale))),
      ...(await reads(dir, Math.round(100_000 * scale))),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

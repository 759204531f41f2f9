import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { correxEventCatalog } from '../src/core/event-catalog.js';
import { openPostgresEventStore } from '../src/infrastructure/postgres/postgres-event-store.js';
import { benchEvent, rawEventRow, type RawEventRow } from './bench-events.js';
import { compare, measure, row, type BenchRow } from './bench-table.js';

/** Alternating baseline and store rounds of the single-row and concurrent rows. */
const ROUNDS = 5;

/**
 * PostgreSQL rows of `npm run bench`. Each store operation is compared with a raw `INSERT`
 * (or `SELECT`) of the same rows through `pg` in the same run, against the same server, so
 * the ratio is the store's own cost: locking the session head, idempotency lookup, hashing,
 * position allocation, NOTIFY. Runs in a fresh schema that is dropped afterwards.
 */
export async function runPostgresBench(
  options: { quick?: boolean; url?: string } = {},
): Promise<BenchRow[]> {
  const url =
    options.url ??
    process.env.CORREX_BENCH_POSTGRES_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const scale = options.quick ? 0.1 : 1;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL benchmarks skipped: ${url} unreachable (${(error as Error).message})`);
    return [];
  }
  const schema = `correx_bench_${randomBytes(4).toString('hex')}`;
  // Room for 16 writers on connections of their own, plus the store's wake-ups.
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  try {
    const store = await openPostgresEventStore({
      pool,
      schema,
      catalog: correxEventCatalog,
      migrate: true,
    });
    await pool.query(`CREATE TABLE "${schema}".raw_events (
      position bigserial PRIMARY KEY, session_id text NOT NULL, sequence bigint NOT NULL,
      event_id text NOT NULL UNIQUE, bytes text NOT NULL, UNIQUE (session_id, sequence))`);
    const raw = `"${schema}".raw_events`;
    const insertOne = (r: RawEventRow) =>
      pool.query(
        `INSERT INTO ${raw} (session_id, sequence, event_id, bytes) VALUES ($1, $2, $3, $4)`,
        [r.sessionId, r.sequence, r.eventId, r.bytes],
      );
    const insertMany = (rs: RawEventRow[]) =>
      pool.query(
        `INSERT INTO ${raw} (session_id, sequence, event_id, bytes)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[])`,
        [
          rs.map((r) => r.sessionId),
          rs.map((r) => r.sequence),
          rs.map((r) => r.eventId),
          rs.map((r) => r.bytes),
        ],
      );
    const rows: BenchRow[] = [];

    // Baseline and store alternate in rounds and each reports its median round, so a burst of
    // load from elsewhere on the machine hits both alike instead of skewing the ratio.
    const singles = Math.round(2000 * scale);
    const single = Array.from({ length: singles }, (_, i) => benchEvent('single', i + 1));
    const singleRates = await compare({
      perRound: singles / ROUNDS,
      rounds: ROUNDS,
      baseline: (i) => insertOne(rawEventRow('raw-single', i + 1)),
      subject: (i) => store.append(single[i]!, { expectedSequence: i }),
    });
    const rawSingle = row('pg raw insert, 1 row', singleRates.baseline, 'events/s');
    rows.push(rawSingle, row('pg append, 1 event', singleRates.subject, 'events/s', rawSingle));

    const batches = Math.round(200 * scale);
    const rawBatch = row(
      'pg raw insert, 100 rows',
      (await measure(batches, (b) =>
        insertMany(
          Array.from({ length: 100 }, (_, i) => rawEventRow('raw-batch', b * 100 + i + 1)),
        ),
      )) * 100,
      'events/s',
    );
    const batchEvents = Array.from({ length: batches }, (_, b) =>
      Array.from({ length: 100 }, (_, i) => benchEvent('batch', b * 100 + i + 1)),
    );
    rows.push(
      rawBatch,
      row(
        'pg appendAll, 100 events',
        (await measure(batches, (b) =>
          store.appendAll(batchEvents[b]!, { expectedSequence: b * 100 }),
        )) * 100,
        'events/s',
        rawBatch,
      ),
    );

    // Each writer appends to its own session, one event per transaction; the raw baseline
    // inserts the same bytes at the same concurrency through the same pool.
    const concurrently = async (
      writers: number,
      count: number,
      from: number,
      write: (writer: number, index: number) => Promise<unknown>,
    ) => {
      const start = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: writers }, async (_, writer) => {
          for (let index = from; index < from + count; index++) await write(writer, index);
        }),
      );
      return (writers * count) / (Number(process.hrtime.bigint() - start) / 1e9);
    };
    for (const [writers, perWriter] of [
      [4, Math.round(1000 * scale)],
      [16, Math.round(250 * scale)],
    ] as const) {
      const writerEvents = Array.from({ length: writers }, (_, w) =>
        Array.from({ length: perWriter }, (_, i) => benchEvent(`writer-${writers}-${w}`, i + 1)),
      );
      const perRound = perWriter / ROUNDS;
      const rawRates: number[] = [];
      const storeRates: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        rawRates.push(
          await concurrently(writers, perRound, round * perRound, (w, i) =>
            insertOne(rawEventRow(`raw-writer-${writers}-${w}`, i + 1)),
          ),
        );
        storeRates.push(
          await concurrently(writers, perRound, round * perRound, (w, i) =>
            store.append(writerEvents[w]![i]!, { expectedSequence: i }),
          ),
        );
      }
      const rawConcurrent = row(`pg raw insert, ${writers} writers`, median(rawRates), 'events/s');
      rows.push(
        rawConcurrent,
        row(
          `pg append, ${writers} writers, ${writers} sessions`,
          median(storeRates),
          'events/s',
          rawConcurrent,
        ),
      );
    }

    const total = Math.round(100_000 * scale);
    for (let from = 1; from <= total; from += 1000)
      await store.appendAll(Array.from({ length: 1000 }, (_, i) => benchEvent('read', from + i)));
    for (let from = 1; from <= total; from += 1000)
      await insertMany(Array.from({ length: 1000 }, (_, i) => rawEventRow('raw-read', from + i)));
    const rawRead = row(
      `pg raw select, ${total} rows`,
      await readRate(total, async () => {
        let count = 0;
        let after = 0;
        for (;;) {
          const page = await pool.query<{ position: string; bytes: string }>(
            `SELECT position, bytes FROM ${raw} WHERE session_id = 'raw-read' AND position > $1 ORDER BY position LIMIT 1000`,
            [after],
          );
          for (const r of page.rows) JSON.parse(r.bytes);
          count += page.rows.length;
          if (page.rows.length < 1000) return count;
          after = Number(page.rows.at(-1)!.position);
        }
      }),
      'events/s',
    );
    rows.push(
      rawRead,
      row(
        `pg read, ${total} events`,
        await readRate(total, async () => {
          let count = 0;
          for await (const _ of store.stream('read')) count += 1;
          return count;
        }),
        'events/s',
        rawRead,
      ),
    );
    await store.close();
    return rows;
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
    await admin.end();
  }
}

async function readRate(expected: number, read: () => Promise<number>): Promise<number> {
  const start = process.hrtime.bigint();
  const count = await read();
  if (count !== expected) throw new Error(`read ${count} events, expected ${expected}`);
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

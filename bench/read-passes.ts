import Database from 'better-sqlite3';
import { correxEventCatalog } from '../src/core/event-catalog.js';
import { envelopeBytes } from '../src/core/events/envelope-bytes.js';
import { GENESIS_HASH } from '../src/core/events/hash-chain.js';
import { openSqliteEventStore } from '../src/infrastructure/sqlite/sqlite-event-store.js';
import { nodeSha256 } from '../src/infrastructure/system/node-sha256.js';
import { benchEvent } from './bench-events.js';

/** A row as the hashing pass selects it: the columns the hashed bytes are rebuilt from. */
type HashedRow = [string, string, string | null, string | null, string, number, number];

/**
 * A SQLite store holding one session of `total` bench events (NORMAL), and the passes over it
 * that the read rows compare: a raw read that checks nothing, the raw read with the SHA-256 chain
 * verify cannot skip, the store's stream, and its `verify()`. Each pass reads the whole session.
 */
export async function openReadPasses(path: string, total: number, sessionId = 'big') {
  const store = openSqliteEventStore(path, { catalog: correxEventCatalog, synchronous: 'normal' });
  for (let from = 0; from < total; from += 1000) {
    await store.appendAll(
      Array.from({ length: Math.min(1000, total - from) }, (_, i) =>
        benchEvent(sessionId, from + i + 1),
      ),
      { expectedSequence: from },
    );
  }
  const db = new Database(path, { readonly: true });
  // Every column a row keeps (schema 6: the envelope beside the payload text), as a reader that
  // checks nothing would read them.
  const select = db.prepare(
    'SELECT event_id, bytes, causation_id, correlation_id, timestamp, version FROM events WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT 1000',
  );
  const hashedSelect = db
    .prepare(
      'SELECT event_id, bytes, causation_id, correlation_id, timestamp, version, sequence FROM events WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT 1000',
    )
    .raw(true);
  let chainedHead = '';
  return {
    store,
    /** Read and parse every row, checking nothing. */
    raw() {
      let after = 0;
      for (;;) {
        const page = select.all(sessionId, after) as { bytes: string }[];
        for (const r of page) JSON.parse(r.bytes);
        if (page.length < 1000) break;
        after += page.length;
      }
    },
    /**
     * The raw read with the hashing verify cannot skip: each event's hashed bytes rebuilt from
     * its columns and chained with SHA-256. What verify costs beyond this is its own work (each
     * stored hash compared, the full-schema decode, the objects it returns).
     */
    rawHashed() {
      let after = 0;
      let previous = GENESIS_HASH;
      for (;;) {
        const page = hashedSelect.all(sessionId, after) as HashedRow[];
        for (const [
          eventId,
          bytes,
          causationId,
          correlationId,
          timestamp,
          version,
          sequence,
        ] of page) {
          JSON.parse(bytes);
          const fields = { causationId, correlationId, eventId, sessionId, timestamp, version };
          previous = nodeSha256(previous + envelopeBytes(fields, sequence, bytes));
        }
        if (page.length < 1000) break;
        after += page.length;
      }
      chainedHead = previous;
    },
    /** The store's stream, decoded, with its chain check. */
    async stream() {
      let seen = 0;
      for await (const _ of store.stream(sessionId)) seen += 1;
      if (seen !== total) throw new Error(`read ${seen} of ${total}`);
    },
    /** The deep check: every stored hash compared and every event decoded with its full schema. */
    async verify() {
      const result = await store.verify(sessionId);
      if (!result.ok || result.lastSequence !== total) throw new Error('verify failed');
    },
    /** Checks the hashing pass computed the chain the store holds, and closes both. */
    async close() {
      try {
        const verified = await store.verify(sessionId);
        if (chainedHead !== '' && (!verified.ok || verified.headHash !== chainedHead))
          throw new Error('the raw hashing pass did not compute the stored chain');
      } finally {
        db.close();
        await store.close();
      }
    },
  };
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { correxEventCatalog, type CorrexEvent } from '../../../src/core/event-catalog.js';
import { InMemoryEventStore } from '../../../src/core/events/in-memory-event-store.js';
import type { CorrexEventStore } from '../../../src/core/event-catalog.js';
import { nodeSha256 } from '../../../src/infrastructure/system/node-sha256.js';

/** The frozen session corpus: recorded sessions that every later release must replay. */
export const CORPUS_DIR = import.meta.dirname;

/** What the manifest says of one recorded session; checked on every run. */
export type CorpusEntry = {
  readonly file: string;
  /** SHA-256 of the file: a corpus file is never rewritten. */
  readonly sha256: string;
  readonly sessionId: string;
  readonly events: number;
  /** correx's version and commit that recorded it. */
  readonly recordedBy: string;
  readonly scenario: string;
};

export type CorpusManifest = { readonly sessions: readonly CorpusEntry[] };

export function readCorpusManifest(): CorpusManifest {
  return JSON.parse(readFileSync(join(CORPUS_DIR, 'manifest.json'), 'utf8')) as CorpusManifest;
}

export function corpusFiles(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith('.ndjson'))
    .sort();
}

/** The recorded events of a corpus file, as the store returned them (with hashes). */
export function readCorpusEvents(file: string): CorrexEvent[] {
  return readFileSync(join(CORPUS_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as CorrexEvent);
}

/**
 * Loads recorded events into a fresh in-memory store, one session after another, and checks that
 * the store computes the very hashes recorded: the bytes are the same as when they were written.
 */
export async function loadCorpusStore(files: readonly string[]): Promise<CorrexEventStore> {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog, sha256: nodeSha256 });
  for (const file of files) {
    const events = readCorpusEvents(file);
    for (const event of events) {
      const stored = await store.append(
        {
          eventId: event.eventId,
          sessionId: event.sessionId,
          timestamp: event.timestamp,
          causationId: event.causationId,
          correlationId: event.correlationId,
          payload: event.payload,
        },
        { expectedSequence: event.sequence - 1 },
      );
      if (stored.hash !== event.hash)
        throw new Error(
          `${file}: event ${event.sequence} of ${event.sessionId} re-encodes to another hash`,
        );
    }
  }
  return store as CorrexEventStore;
}

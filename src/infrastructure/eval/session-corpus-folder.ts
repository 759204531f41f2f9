import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import {
  correxEventCatalog,
  type CorrexEvent,
  type CorrexEventStore,
} from '../../core/event-catalog.js';
import { InMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import { nodeSha256 } from '../system/node-sha256.js';

/** One recorded session of a corpus folder, as its file holds it. */
export type CorpusSession = {
  readonly file: string;
  readonly sessionId: string;
  readonly events: number;
};

/** What is wrong with a corpus folder before anything replays (a rewritten file, a bad line). */
export type CorpusProblem = {
  readonly file: string;
  readonly sessionId: string | null;
  readonly sequence: number | null;
  readonly reason: string;
};

/** One corpus file loaded into a store of its own (ids need only be unique within a file). */
export type LoadedCorpusFile = {
  readonly file: string;
  readonly store: CorrexEventStore;
  readonly sessions: readonly CorpusSession[];
  readonly problems: readonly CorpusProblem[];
};

export type CorpusFolder = {
  readonly folder: string;
  readonly files: readonly string[];
  /** What the manifest says is wrong with the set of files. */
  readonly problems: readonly CorpusProblem[];
};

type ManifestEntry = { readonly file: string; readonly sha256?: string; readonly events?: number };

/**
 * Lists a corpus folder: `*.ndjson` files of canonical envelopes (what `correx events <id> --json`
 * prints, the format of test/golden/sessions/), one or more sessions per file. A `manifest.json`
 * beside them (`{ sessions: [{ file, sha256 }] }`) pins the set of files and their digests: a
 * rewritten, missing or unlisted file is a problem.
 */
export function readCorpusFolder(dir: string): CorpusFolder {
  const folder = resolve(dir);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new CorrexError('usage', `--corpus ${folder} is not a folder`);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.ndjson'))
    .sort();
  return { folder, files, problems: checkManifest(folder, files) };
}

/**
 * Loads one corpus file into a fresh in-memory store. An event that carries a hash must
 * re-encode to that very hash: its bytes are the ones recorded.
 */
export async function loadCorpusFile(folder: string, file: string): Promise<LoadedCorpusFile> {
  const problems: CorpusProblem[] = [];
  const store = new InMemoryEventStore({ catalog: correxEventCatalog, sha256: nodeSha256 });
  const counts = new Map<string, number>();
  const lines = readFileSync(join(folder, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  for (const [index, line] of lines.entries()) {
    let event: CorrexEvent;
    try {
      event = JSON.parse(line) as CorrexEvent;
    } catch {
      problems.push({
        file,
        sessionId: null,
        sequence: null,
        reason: `line ${index + 1} is not JSON`,
      });
      break;
    }
    const problem = await appendRecorded(store, event);
    if (problem !== null) {
      problems.push({
        file,
        sessionId: event.sessionId,
        sequence: event.sequence,
        reason: problem,
      });
      break;
    }
    counts.set(event.sessionId, (counts.get(event.sessionId) ?? 0) + 1);
  }
  const sessions = [...counts].map(([sessionId, events]) => ({ file, sessionId, events }));
  return { file, store: store as CorrexEventStore, sessions, problems };
}

async function appendRecorded(
  store: InMemoryEventStore<CorrexEvent['payload']>,
  event: CorrexEvent,
): Promise<string | null> {
  try {
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
    if (event.hash !== undefined && stored.hash !== event.hash)
      return `event ${event.sequence} re-encodes to another hash (recorded ${event.hash.slice(0, 12)}, now ${stored.hash.slice(0, 12)})`;
    return null;
  } catch (error) {
    if (CorrexError.isInstance(error))
      return `event ${event.sequence} cannot be read: ${error.message}`;
    throw error;
  }
}

function checkManifest(folder: string, files: readonly string[]): CorpusProblem[] {
  const path = join(folder, 'manifest.json');
  if (!existsSync(path)) return [];
  let entries: readonly ManifestEntry[];
  try {
    entries = (JSON.parse(readFileSync(path, 'utf8')) as { sessions: ManifestEntry[] }).sessions;
  } catch {
    return [
      { file: 'manifest.json', sessionId: null, sequence: null, reason: 'not a corpus manifest' },
    ];
  }
  const problems: CorpusProblem[] = [];
  const listed = new Set(entries.map((entry) => entry.file));
  for (const file of files)
    if (!listed.has(file))
      problems.push({
        file,
        sessionId: null,
        sequence: null,
        reason: 'not listed in manifest.json',
      });
  for (const entry of entries) {
    if (!files.includes(entry.file)) {
      problems.push({
        file: entry.file,
        sessionId: null,
        sequence: null,
        reason: 'listed in manifest.json but missing',
      });
      continue;
    }
    if (entry.sha256 === undefined) continue;
    const digest = createHash('sha256')
      .update(readFileSync(join(folder, entry.file)))
      .digest('hex');
    if (digest !== entry.sha256)
      problems.push({
        file: entry.file,
        sessionId: null,
        sequence: null,
        reason: 'rewritten since manifest.json recorded its digest',
      });
  }
  return problems;
}

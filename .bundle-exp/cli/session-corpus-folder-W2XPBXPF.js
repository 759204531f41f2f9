import {
  StoreClosedError,
  checkDriverEpoch,
  checkExpectedSequence,
  collectEvents,
  createAppendNotifier,
  liveFeed,
  normalizeBatch,
  pageFeed,
  sealBatch,
  settleRetry,
  streamSession,
  toStoredEvent,
  verifySession
} from "./chunk-3K2LSKRX.js";
import {
  GENESIS_HASH,
  checkRowHash
} from "./chunk-5UEANXJE.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import "./chunk-CORQQBM5.js";
import {
  correxEventCatalog,
  sha256Hex
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import {
  createEventCodec
} from "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/eval/session-corpus-folder.ts
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

// src/core/events/in-memory-event-store.ts
var InMemoryEventStore = class {
  #codec;
  #sha256;
  #rows = [];
  #bySession = /* @__PURE__ */ new Map();
  #byEventId = /* @__PURE__ */ new Map();
  #notifier = createAppendNotifier();
  #epochs = /* @__PURE__ */ new Map();
  #closed = false;
  constructor(options) {
    this.#codec = createEventCodec(options.catalog);
    this.#sha256 = options.sha256 ?? sha256Hex;
  }
  async append(event, options) {
    const [stored] = await this.appendAll([event], options);
    return stored;
  }
  async appendAll(events, options) {
    this.#open();
    const batch = normalizeBatch(this.#codec, events);
    const existing = /* @__PURE__ */ new Map();
    for (const event of batch) {
      const row = this.#byEventId.get(event.eventId);
      if (row) existing.set(event.eventId, this.#codec.decodeRow(row));
    }
    const retried = settleRetry(this.#codec, batch, existing);
    if (retried) return retried;
    const sessionId = batch[0].sessionId;
    const sessionRows = this.#bySession.get(sessionId) ?? [];
    const last = sessionRows.at(-1);
    checkDriverEpoch(sessionId, options, this.#epochs.get(sessionId) ?? 0);
    checkExpectedSequence(sessionId, options, last?.sequence ?? 0);
    const sealed = sealBatch(this.#codec, this.#sha256, batch, {
      sequence: last?.sequence ?? 0,
      hash: last?.hash ?? GENESIS_HASH
    });
    const rows = sealed.map((event, index) => ({
      ...event,
      position: this.#rows.length + index + 1
    }));
    this.#rows.push(...rows);
    sessionRows.push(...rows);
    this.#bySession.set(sessionId, sessionRows);
    for (const row of rows) this.#byEventId.set(row.eventId, row);
    this.#notifier.notify();
    return rows.map((row, index) => toStoredEvent(batch[index], row, row.position));
  }
  async takeDriverEpoch(sessionId) {
    this.#open();
    const epoch = (this.#epochs.get(sessionId) ?? 0) + 1;
    this.#epochs.set(sessionId, epoch);
    return epoch;
  }
  async driverEpoch(sessionId) {
    this.#open();
    return this.#epochs.get(sessionId) ?? 0;
  }
  async read(sessionId, options = {}) {
    return collectEvents(this.stream(sessionId, options), options.limit);
  }
  stream(sessionId, options = {}) {
    this.#open();
    return streamSession(
      this.#rowSource,
      this.#codec,
      this.#sha256,
      sessionId,
      options.afterSequence
    );
  }
  async lastSequence(sessionId) {
    this.#open();
    return this.#bySession.get(sessionId)?.at(-1)?.sequence ?? 0;
  }
  async listSessions() {
    this.#open();
    return [...this.#bySession.entries()].map(([sessionId, rows]) => ({
      sessionId,
      lastSequence: rows.at(-1).sequence,
      firstTimestamp: rows[0].timestamp,
      lastTimestamp: rows.at(-1).timestamp
    }));
  }
  readAll(options = {}) {
    this.#open();
    return pageFeed((after, limit) => this.#page(after, limit), options);
  }
  subscribe(options = {}) {
    this.#open();
    return liveFeed(
      {
        readPage: async (after, limit) => this.#closed ? [] : this.#page(after, limit),
        nextChange: () => this.#notifier.next()
      },
      options
    );
  }
  async verify(sessionId) {
    this.#open();
    return verifySession(this.#rowSource, this.#codec, this.#sha256, sessionId);
  }
  async close() {
    this.#closed = true;
    this.#notifier.notify();
  }
  /** Test hook: overwrite a stored row in place, as an attacker with disk access could. */
  tamper(sessionId, sequence, change) {
    const rows = this.#bySession.get(sessionId) ?? [];
    const index = rows.findIndex((row) => row.sequence === sequence);
    if (index < 0) throw new RangeError(`no event ${sessionId}#${sequence}`);
    const original = rows[index];
    const replaced = { ...original, ...change(original) };
    rows[index] = replaced;
    this.#rows[this.#rows.indexOf(original)] = replaced;
    this.#byEventId.set(replaced.eventId, replaced);
  }
  #page(afterPosition, limit) {
    return this.#rows.slice(afterPosition, afterPosition + limit).map((row) => {
      checkRowHash(this.#sha256, row);
      return this.#codec.decodeVerifiedRow(row, row.hash);
    });
  }
  /** Rows of one session, for the shared read paths. */
  #rowSource = {
    // Sequences are dense from 1 within a session, so a sequence is its row's index plus one;
    // reading by index keeps a page O(limit) instead of a scan of the whole session.
    page: (sessionId, after, limit) => (this.#bySession.get(sessionId) ?? []).slice(Math.max(0, after), Math.max(0, after) + limit),
    hashAt: (sessionId, sequence) => sequence >= 1 ? this.#bySession.get(sessionId)?.[sequence - 1]?.hash : void 0,
    head: (sessionId) => {
      const last = this.#bySession.get(sessionId)?.at(-1);
      return last && { sequence: last.sequence, hash: last.hash };
    }
  };
  #open() {
    if (this.#closed) throw new StoreClosedError("in-memory event store");
  }
};

// src/infrastructure/eval/session-corpus-folder.ts
function readCorpusFolder(dir) {
  const folder = resolve(dir);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new CorrexError("usage", `--corpus ${folder} is not a folder`);
  const files = readdirSync(folder).filter((name) => name.endsWith(".ndjson")).sort();
  return { folder, files, problems: checkManifest(folder, files) };
}
async function loadCorpusFile(folder, file) {
  const problems = [];
  const store = new InMemoryEventStore({ catalog: correxEventCatalog, sha256: nodeSha256 });
  const counts = /* @__PURE__ */ new Map();
  const lines = readFileSync(join(folder, file), "utf8").split("\n").filter((line) => line.trim() !== "");
  for (const [index, line] of lines.entries()) {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      problems.push({
        file,
        sessionId: null,
        sequence: null,
        reason: `line ${index + 1} is not JSON`
      });
      break;
    }
    const problem = await appendRecorded(store, event);
    if (problem !== null) {
      problems.push({
        file,
        sessionId: event.sessionId,
        sequence: event.sequence,
        reason: problem
      });
      break;
    }
    counts.set(event.sessionId, (counts.get(event.sessionId) ?? 0) + 1);
  }
  const sessions = [...counts].map(([sessionId, events]) => ({ file, sessionId, events }));
  return { file, store, sessions, problems };
}
async function appendRecorded(store, event) {
  try {
    const stored = await store.append(
      {
        eventId: event.eventId,
        sessionId: event.sessionId,
        timestamp: event.timestamp,
        causationId: event.causationId,
        correlationId: event.correlationId,
        payload: event.payload
      },
      { expectedSequence: event.sequence - 1 }
    );
    if (event.hash !== void 0 && stored.hash !== event.hash)
      return `event ${event.sequence} re-encodes to another hash (recorded ${event.hash.slice(0, 12)}, now ${stored.hash.slice(0, 12)})`;
    return null;
  } catch (error) {
    if (CorrexError.isInstance(error))
      return `event ${event.sequence} cannot be read: ${error.message}`;
    throw error;
  }
}
function checkManifest(folder, files) {
  const path = join(folder, "manifest.json");
  if (!existsSync(path)) return [];
  let entries;
  try {
    entries = JSON.parse(readFileSync(path, "utf8")).sessions;
  } catch {
    return [
      { file: "manifest.json", sessionId: null, sequence: null, reason: "not a corpus manifest" }
    ];
  }
  const problems = [];
  const listed = new Set(entries.map((entry) => entry.file));
  for (const file of files)
    if (!listed.has(file))
      problems.push({
        file,
        sessionId: null,
        sequence: null,
        reason: "not listed in manifest.json"
      });
  for (const entry of entries) {
    if (!files.includes(entry.file)) {
      problems.push({
        file: entry.file,
        sessionId: null,
        sequence: null,
        reason: "listed in manifest.json but missing"
      });
      continue;
    }
    if (entry.sha256 === void 0) continue;
    const digest = createHash("sha256").update(readFileSync(join(folder, entry.file))).digest("hex");
    if (digest !== entry.sha256)
      problems.push({
        file: entry.file,
        sessionId: null,
        sequence: null,
        reason: "rewritten since manifest.json recorded its digest"
      });
  }
  return problems;
}
export {
  loadCorpusFile,
  readCorpusFolder
};

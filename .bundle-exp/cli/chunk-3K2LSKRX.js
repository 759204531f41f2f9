import {
  GENESIS_HASH,
  chainHash,
  checkChainRun,
  createChainChecker
} from "./chunk-5UEANXJE.js";
import {
  ConcurrencyError
} from "./chunk-CORQQBM5.js";
import {
  InvalidAppendError
} from "./chunk-W32ANIA4.js";
import {
  CorruptEventError
} from "./chunk-AYFXHFZY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/events/duplicate-event-error.ts
var DuplicateEventError = class extends CorrexError {
  constructor(sessionId, eventId, detail) {
    super("duplicate_event", `session ${sessionId}, event ${eventId}: ${detail}`);
    this.sessionId = sessionId;
    this.eventId = eventId;
  }
  sessionId;
  eventId;
};

// src/core/events/stale-driver-error.ts
var StaleDriverError = class extends CorrexError {
  constructor(sessionId, epoch, currentEpoch) {
    super(
      "driver_fenced",
      `session ${sessionId}: this driver's epoch ${epoch} was fenced (the session is at driver epoch ${currentEpoch}): another process drives it now, so this one lost the session and stopped`
    );
    this.sessionId = sessionId;
    this.epoch = epoch;
    this.currentEpoch = currentEpoch;
  }
  sessionId;
  epoch;
  currentEpoch;
};

// src/core/events/append-batch.ts
function normalizeBatch(codec, events) {
  if (events.length === 0) throw new InvalidAppendError("appendAll needs at least one event");
  const sessionId = events[0].sessionId;
  const seen = /* @__PURE__ */ new Set();
  for (const event of events) {
    if (event.sessionId !== sessionId) {
      throw new InvalidAppendError(
        `appendAll is for one session: got ${sessionId} and ${event.sessionId}`
      );
    }
    if (seen.has(event.eventId))
      throw new InvalidAppendError(`event id ${event.eventId} appears twice in one batch`);
    seen.add(event.eventId);
  }
  return events.map((event) => codec.normalize(event));
}
function settleRetry(codec, batch, stored) {
  if (stored.size === 0) return void 0;
  const result = [];
  for (const event of batch) {
    const existing = stored.get(event.eventId);
    if (!existing) {
      const first = [...stored.keys()][0];
      throw new DuplicateEventError(
        event.sessionId,
        first,
        "batch overlaps stored events only in part"
      );
    }
    if (existing.sessionId !== event.sessionId || codec.identity(existing) !== codec.identity(event)) {
      throw new DuplicateEventError(
        event.sessionId,
        event.eventId,
        "already stored with different content"
      );
    }
    result.push(existing);
  }
  const sequences = result.map((event) => event.sequence);
  if (sequences.some((sequence, index) => index > 0 && sequence !== sequences[index - 1] + 1)) {
    throw new DuplicateEventError(
      batch[0].sessionId,
      batch[0].eventId,
      "batch matches stored events in another order"
    );
  }
  return result;
}
function checkExpectedSequence(sessionId, options, actual) {
  if (options?.expectedSequence !== void 0 && options.expectedSequence !== actual) {
    throw new ConcurrencyError(sessionId, options.expectedSequence, actual);
  }
}
function checkDriverEpoch(sessionId, options, current) {
  if (options?.driverEpoch !== void 0 && options.driverEpoch !== current)
    throw new StaleDriverError(sessionId, options.driverEpoch, current);
}
function sealBatch(codec, sha256, batch, last) {
  let previousHash = last.hash;
  return batch.map((event, index) => {
    const sequence = last.sequence + index + 1;
    const bytes = codec.encode(event, sequence);
    const hash = chainHash(sha256, previousHash, bytes);
    const sealed = {
      sessionId: event.sessionId,
      sequence,
      eventId: event.eventId,
      type: event.payload.type,
      timestamp: event.timestamp,
      bytes,
      hash,
      previousHash
    };
    previousHash = hash;
    return sealed;
  });
}
function toStoredEvent(event, sealed, position) {
  return {
    eventId: event.eventId,
    sessionId: event.sessionId,
    sequence: sealed.sequence,
    timestamp: event.timestamp,
    version: event.version,
    causationId: event.causationId,
    correlationId: event.correlationId,
    payload: event.payload,
    position,
    hash: sealed.hash
  };
}

// src/core/events/live-feed.ts
function createAppendNotifier() {
  let wake;
  let pending;
  return {
    next() {
      pending ??= new Promise((resolve) => {
        wake = resolve;
      });
      return pending;
    },
    notify() {
      const resolve = wake;
      wake = void 0;
      pending = void 0;
      resolve?.();
    }
  };
}
var PAGE_SIZE = 500;
async function* liveFeed(source, options = {}) {
  const { signal } = options;
  let position = options.afterPosition ?? 0;
  let caughtUp = false;
  const aborted = new Promise((resolve) => {
    if (signal?.aborted) resolve("aborted");
    signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  while (!signal?.aborted) {
    const change = source.nextChange();
    const page = await source.readPage(position, PAGE_SIZE);
    for (const event of page) {
      if (signal?.aborted) return;
      position = event.position;
      yield { type: "event", event };
    }
    if (page.length === PAGE_SIZE) continue;
    if (!caughtUp) {
      caughtUp = true;
      yield { type: "caught_up", position };
    }
    if (await Promise.race([change, aborted]) === "aborted") return;
  }
}

// src/core/events/session-stream.ts
var DONE = { done: true, value: void 0 };
var SessionStream = class {
  constructor(source, codec, sha256, sessionId, pageSize, afterSequence) {
    this.source = source;
    this.codec = codec;
    this.sha256 = sha256;
    this.sessionId = sessionId;
    this.pageSize = pageSize;
    this.#after = Math.max(0, afterSequence);
  }
  source;
  codec;
  sha256;
  sessionId;
  pageSize;
  #page = [];
  /** The hashes computed for the rows of the page, as far as they are checked. */
  #hashes = [];
  #index = 0;
  /** Rows before this index of the page are checked; `#failure` is where the chain broke. */
  #checkedEnd = 0;
  #failure;
  /** The last checked row (or the cursor): where the chain continues. */
  #link;
  #after;
  #lastPage = false;
  #loading;
  [Symbol.asyncIterator]() {
    return this;
  }
  next() {
    if (this.#loading) return this.#loading.then(() => this.next());
    try {
      if (!this.#link) {
        const after = this.#after;
        const start = after === 0 ? GENESIS_HASH : this.source.hashAt(this.sessionId, after);
        const waiting = this.#whenReady(start, (hash) => {
          this.#link = { sequence: after, hash: hash ?? GENESIS_HASH };
        });
        if (waiting) return waiting;
      }
      for (; ; ) {
        if (this.#index < this.#checkedEnd) {
          const index = this.#index++;
          return Promise.resolve({ done: false, value: this.#decode(index) });
        }
        if (this.#failure) throw this.#failure;
        if (this.#index < this.#page.length) {
          this.#checkRun();
          continue;
        }
        if (this.#lastPage) return Promise.resolve(DONE);
        const sparse = this.source.sparse;
        if (sparse) {
          this.#turnTo(sparse.page(this.sessionId, this.#after, this.pageSize));
          continue;
        }
        const page = this.source.page(this.sessionId, this.#after, this.pageSize);
        const waiting = this.#whenReady(page, (rows) => this.#turnTo(rows));
        if (waiting) return waiting;
      }
    } catch (error) {
      this.#end();
      return Promise.reject(error);
    }
  }
  return() {
    this.#end();
    return Promise.resolve(DONE);
  }
  /** Checks the next run of rows (up to one with a stored hash); see checkChainRun. */
  #checkRun() {
    const sparse = this.source.sparse;
    const run = checkChainRun(
      this.sha256,
      this.#page,
      this.#index,
      this.#link,
      this.#hashes,
      // Only sparse rows lack a stored hash, so only they are ever looked up.
      (sequence) => sparse?.hashAt(this.sessionId, sequence)
    );
    if (run.end > this.#index) {
      this.#link = {
        sequence: this.#page[run.end - 1].sequence,
        hash: this.#hashes[run.end - 1]
      };
    }
    this.#checkedEnd = run.end;
    this.#failure = run.failure;
  }
  #decode(index) {
    return this.codec.decodeVerifiedRow(this.#page[index], this.#hashes[index]);
  }
  /** Applies a value at once, or (for a promise) once it settles and then continues with next(). */
  #whenReady(value, apply) {
    if (!isPromiseLike(value)) {
      apply(value);
      return void 0;
    }
    this.#loading = Promise.resolve(value).then(
      (settled) => {
        this.#loading = void 0;
        apply(settled);
      },
      (error) => {
        this.#loading = void 0;
        this.#end();
        throw error;
      }
    );
    return this.#loading.then(() => this.next());
  }
  #turnTo(rows) {
    this.#page = rows;
    this.#hashes = new Array(rows.length);
    this.#index = 0;
    this.#checkedEnd = 0;
    this.#lastPage = rows.length < this.pageSize;
    if (rows.length > 0) this.#after = rows[rows.length - 1].sequence;
  }
  #end() {
    this.#page = [];
    this.#index = 0;
    this.#checkedEnd = 0;
    this.#failure = void 0;
    this.#lastPage = true;
  }
};
function isPromiseLike(value) {
  return typeof value?.then === "function";
}

// src/core/events/session-reads.ts
var READ_PAGE_SIZE = 1e3;
function streamSession(source, codec, sha256, sessionId, afterSequence = 0) {
  return new SessionStream(source, codec, sha256, sessionId, READ_PAGE_SIZE, afterSequence);
}
async function collectEvents(events, limit = Number.MAX_SAFE_INTEGER) {
  const collected = [];
  if (limit <= 0) return collected;
  for await (const event of events) {
    collected.push(event);
    if (collected.length >= limit) break;
  }
  return collected;
}
async function verifySession(source, codec, sha256, sessionId) {
  const checker = createChainChecker(sha256, { sequence: 0, hash: GENESIS_HASH });
  let after = 0;
  let headHash = GENESIS_HASH;
  try {
    for (; ; ) {
      const page = await source.page(sessionId, after, READ_PAGE_SIZE);
      for (const row of page) {
        checker.check(row);
        codec.decodeRow(row);
        headHash = row.hash;
        after = row.sequence;
      }
      if (page.length < READ_PAGE_SIZE) break;
    }
  } catch (error) {
    if (error instanceof CorruptEventError)
      return { ok: false, sessionId, sequence: error.sequence, detail: error.message };
    throw error;
  }
  const head = await source.head(sessionId);
  if (head && (head.sequence !== after || head.hash !== headHash)) {
    return {
      ok: false,
      sessionId,
      sequence: head.sequence,
      detail: "the recorded session head does not match its last event"
    };
  }
  return { ok: true, sessionId, lastSequence: after, headHash };
}
async function* pageFeed(readPage, options = {}) {
  let after = options.afterPosition ?? 0;
  let remaining = options.limit ?? Number.MAX_SAFE_INTEGER;
  while (remaining > 0) {
    const want = Math.min(READ_PAGE_SIZE, remaining);
    const page = await readPage(after, want);
    yield* page;
    if (page.length < want) return;
    remaining -= page.length;
    after = page.at(-1).position;
  }
}

// src/core/events/store-closed-error.ts
var StoreClosedError = class extends CorrexError {
  constructor(store) {
    super("store_closed", `${store} is closed`);
  }
};

export {
  StaleDriverError,
  normalizeBatch,
  settleRetry,
  checkExpectedSequence,
  checkDriverEpoch,
  sealBatch,
  toStoredEvent,
  createAppendNotifier,
  liveFeed,
  streamSession,
  collectEvents,
  verifySession,
  pageFeed,
  StoreClosedError
};

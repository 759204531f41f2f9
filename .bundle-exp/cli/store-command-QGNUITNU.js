import {
  GENESIS_HASH,
  chainHash
} from "./chunk-5UEANXJE.js";
import {
  formatJson,
  formatTable
} from "./chunk-5MQ6PZFE.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  correxEventCatalog
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import {
  createEventCodec
} from "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/store-command.ts
import { Command } from "commander";

// src/infrastructure/store-copy.ts
var StoreCopyError = class extends CorrexError {
  constructor(sessionId, sequence, detail) {
    super("store_copy_failed", `copying session ${sessionId} at sequence ${sequence}: ${detail}`);
    this.sessionId = sessionId;
    this.sequence = sequence;
  }
  sessionId;
  sequence;
};
async function copySessions(options) {
  const { from, to } = options;
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const codec = createEventCodec(
    options.catalog ?? correxEventCatalog
  );
  const sha256 = options.sha256 ?? nodeSha256;
  const sessionIds = options.sessionIds ?? (await from.listSessions()).map((session) => session.sessionId);
  const reports = [];
  for (const sessionId of sessionIds) {
    const source = await from.verify(sessionId);
    if (!source.ok)
      throw new StoreCopyError(
        sessionId,
        source.sequence,
        `the source chain is broken: ${source.detail}`
      );
    if (source.lastSequence === 0)
      throw new StoreCopyError(sessionId, 0, "the source store has no such session");
    const present = await to.lastSequence(sessionId);
    if (present > source.lastSequence) {
      throw new StoreCopyError(
        sessionId,
        source.lastSequence + 1,
        `the target holds ${present} events, the source only ${source.lastSequence}`
      );
    }
    const sourceEvents = from.stream(sessionId)[Symbol.asyncIterator]();
    let copied = 0;
    try {
      for await (const held of to.stream(sessionId)) {
        const next = await sourceEvents.next();
        if (next.done || !sameEvent(next.value, held)) {
          throw new StoreCopyError(
            sessionId,
            held.sequence,
            "the target already holds a different event here"
          );
        }
      }
      let batch = [];
      let previousHash;
      const flush = async () => {
        if (batch.length === 0) return;
        previousHash = checkReencoding(
          codec,
          sha256,
          batch,
          previousHash ?? await hashBefore(to, batch[0])
        );
        const expectedSequence = batch[0].sequence - 1;
        const stored = await to.appendAll(batch.map(toNewEvent), { expectedSequence });
        stored.forEach((event, index) => {
          if (!sameEvent(batch[index], event)) {
            throw new StoreCopyError(
              sessionId,
              event.sequence,
              "the target stored different bytes (is its event catalog older or newer than the source\u2019s?)"
            );
          }
        });
        copied += stored.length;
        batch = [];
      };
      for (let next = await sourceEvents.next(); !next.done; next = await sourceEvents.next()) {
        batch.push(next.value);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
    } finally {
      await sourceEvents.return?.();
    }
    const target = await to.verify(sessionId);
    if (!target.ok)
      throw new StoreCopyError(
        sessionId,
        target.sequence,
        `the target chain is broken: ${target.detail}`
      );
    if (target.lastSequence !== source.lastSequence || target.headHash !== source.headHash) {
      throw new StoreCopyError(
        sessionId,
        target.lastSequence,
        "the target head differs from the source head after copying"
      );
    }
    reports.push({
      sessionId,
      copied,
      alreadyPresent: present,
      lastSequence: target.lastSequence,
      headHash: target.headHash
    });
  }
  return reports;
}
function sameEvent(a, b) {
  return a.eventId === b.eventId && a.sequence === b.sequence && a.hash === b.hash;
}
async function hashBefore(to, first) {
  if (first.sequence === 1) return GENESIS_HASH;
  const [previous] = await to.read(first.sessionId, {
    afterSequence: first.sequence - 2,
    limit: 1
  });
  return previous?.hash ?? GENESIS_HASH;
}
function checkReencoding(codec, sha256, batch, previousHash) {
  let previous = previousHash;
  for (const event of batch) {
    let hash;
    try {
      hash = chainHash(
        sha256,
        previous,
        codec.encode(codec.normalize(toNewEvent(event)), event.sequence)
      );
    } catch (error) {
      throw new StoreCopyError(event.sessionId, event.sequence, error.message);
    }
    if (hash !== event.hash) {
      throw new StoreCopyError(
        event.sessionId,
        event.sequence,
        "the event would not keep its bytes in the target (an upcast event, or a different event catalog)"
      );
    }
    previous = hash;
  }
  return previous;
}
function toNewEvent(event) {
  return {
    eventId: event.eventId,
    sessionId: event.sessionId,
    timestamp: event.timestamp,
    causationId: event.causationId,
    correlationId: event.correlationId,
    payload: event.payload
  };
}

// src/interfaces/cli/commands/store-command.ts
function storeCommand(context) {
  const store = new Command("store").description("work with whole stores");
  store.command("copy").description(
    "copy sessions between stores, keeping ids, bytes and hashes; verifies every chain on arrival"
  ).requiredOption("--from <location>", "source store: SQLite file or postgres:// URL").requiredOption("--to <location>", "target store: SQLite file or postgres:// URL").option("--session <id...>", "only these sessions (default: all)").option("--json", "print JSON").action(async (options) => {
    const from = await context.openStores(options.from);
    try {
      const to = await context.openStores(options.to, { create: true });
      try {
        const reports = await copySessions({
          from: from.events,
          to: to.events,
          ...options.session && { sessionIds: options.session }
        });
        if (options.json) return context.out(formatJson(reports));
        context.out(
          formatTable(
            ["SESSION", "COPIED", "ALREADY THERE", "LAST SEQ", "HEAD HASH"],
            reports.map((r) => [
              r.sessionId,
              String(r.copied),
              String(r.alreadyPresent),
              String(r.lastSequence),
              r.headHash
            ])
          )
        );
        context.out(
          `${reports.length} session(s) from ${from.location} to ${to.location}, hash chains verified`
        );
      } finally {
        await to.close();
      }
    } finally {
      await from.close();
    }
  });
  return store;
}
export {
  storeCommand
};

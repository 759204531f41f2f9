import {
  CorruptEventError
} from "./chunk-AYFXHFZY.js";

// src/core/events/hash-chain.ts
var GENESIS_HASH = "0".repeat(64);
function chainHash(sha256, previousHash, bytes) {
  return sha256(previousHash + bytes);
}
function createChainChecker(sha256, start) {
  let expectedSequence = start.sequence + 1;
  let previousHash = start.hash;
  return {
    /** Throws CorruptEventError (reason `hash`) at the first row that breaks the chain. */
    check(row) {
      if (row.sequence !== expectedSequence) {
        throw new CorruptEventError(
          row.sessionId,
          expectedSequence,
          "hash",
          `sequence ${expectedSequence} is missing (found ${row.sequence})`
        );
      }
      if (row.previousHash !== void 0 && row.previousHash !== previousHash) {
        throw new CorruptEventError(
          row.sessionId,
          row.sequence,
          "hash",
          "previous hash does not match the previous event"
        );
      }
      if (chainHash(sha256, previousHash, row.bytes) !== row.hash) {
        throw new CorruptEventError(
          row.sessionId,
          row.sequence,
          "hash",
          "hash does not match the stored bytes"
        );
      }
      previousHash = row.hash;
      expectedSequence += 1;
    }
  };
}
function checkRowHash(sha256, row) {
  if (chainHash(sha256, row.previousHash, row.bytes) !== row.hash) {
    throw new CorruptEventError(
      row.sessionId,
      row.sequence,
      "hash",
      "hash does not match the stored bytes"
    );
  }
}
function checkChainRun(sha256, rows, from, link, hashes, storedHash) {
  let previousHash = link.hash;
  let end = from;
  let failure;
  while (end < rows.length) {
    const row = rows[end];
    const expectedSequence = link.sequence + 1 + (end - from);
    if (row.sequence !== expectedSequence) {
      failure = new CorruptEventError(
        row.sessionId,
        expectedSequence,
        "hash",
        `sequence ${expectedSequence} is missing (found ${row.sequence})`
      );
      break;
    }
    if (row.previousHash !== void 0 && row.previousHash !== previousHash) {
      failure = new CorruptEventError(
        row.sessionId,
        row.sequence,
        "hash",
        "previous hash does not match the previous event"
      );
      break;
    }
    const hash = chainHash(sha256, previousHash, row.bytes);
    if (row.hash !== void 0 && row.hash !== hash) {
      failure = bytesMismatch(row);
      break;
    }
    hashes[end] = hash;
    previousHash = hash;
    end += 1;
    if (row.hash !== void 0) break;
  }
  const last = rows[end - 1];
  if (end > from && last.hash === void 0 && storedHash(last.sequence) !== hashes[end - 1]) {
    let bad = from;
    while (storedHash(rows[bad].sequence) === hashes[bad]) bad += 1;
    return { end: bad, failure: bytesMismatch(rows[bad]) };
  }
  return failure ? { end, failure } : { end };
}
function bytesMismatch(row) {
  return new CorruptEventError(
    row.sessionId,
    row.sequence,
    "hash",
    "hash does not match the stored bytes"
  );
}

export {
  GENESIS_HASH,
  chainHash,
  createChainChecker,
  checkRowHash,
  checkChainRun
};

import {
  CorruptEventError
} from "./chunk-AYFXHFZY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/events/canonical-json.ts
var NonCanonicalValueError = class extends CorrexError {
  constructor(message) {
    super("non_canonical_value", message);
  }
};
function canonicalJson(value) {
  const copy = sortedCopy(value, 0);
  if (copy !== NOT_COPIED) return JSON.stringify(copy);
  try {
    return encode(value, 0);
  } catch (error) {
    if (error instanceof PathedProblem)
      throw new NonCanonicalValueError(`$${error.path} ${error.problem}`);
    throw error;
  }
}
var MAX_DEPTH = 256;
var LONE_SURROGATE_PROBLEM = "holds a lone surrogate: not Unicode text, so not I-JSON";
var PathedProblem = class {
  constructor(problem, path = "") {
    this.problem = problem;
    this.path = path;
  }
  problem;
  path;
};
var NOT_COPIED = /* @__PURE__ */ Symbol("not copied");
var INDEX_LIKE_KEY = /^(?:0|[1-9][0-9]{0,9})$/;
function sortedCopy(value, depth) {
  switch (typeof value) {
    case "string":
      return value.isWellFormed() ? value : NOT_COPIED;
    case "number":
      return Number.isFinite(value) ? value : NOT_COPIED;
    case "boolean":
      return value;
    case "object": {
      if (value === null) return null;
      if (depth >= MAX_DEPTH) return NOT_COPIED;
      if (Array.isArray(value)) {
        const items = value;
        const copy2 = new Array(items.length);
        for (let index = 0; index < items.length; index++) {
          const item = items[index];
          const itemCopy = item === void 0 ? null : sortedCopy(item, depth + 1);
          if (itemCopy === NOT_COPIED) return NOT_COPIED;
          copy2[index] = itemCopy;
        }
        return copy2;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return NOT_COPIED;
      const record = value;
      const copy = {};
      for (const key of sortedKeys(record)) {
        const member = record[key];
        if (member === void 0) continue;
        if (!key.isWellFormed() || key === "__proto__" || INDEX_LIKE_KEY.test(key))
          return NOT_COPIED;
        const memberCopy = sortedCopy(member, depth + 1);
        if (memberCopy === NOT_COPIED) return NOT_COPIED;
        copy[key] = memberCopy;
      }
      return copy;
    }
    default:
      return NOT_COPIED;
  }
}
function sortedKeys(record) {
  const keys = Object.keys(record);
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index];
    let at = index - 1;
    while (at >= 0 && keys[at] > key) {
      keys[at + 1] = keys[at];
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}
function encode(value, depth) {
  switch (typeof value) {
    case "string":
      if (!value.isWellFormed()) throw new PathedProblem(LONE_SURROGATE_PROBLEM);
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new PathedProblem(`is ${value}: JSON has no such number`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (depth >= MAX_DEPTH)
        throw new PathedProblem(
          `is nested deeper than ${MAX_DEPTH} levels or refers back to itself`
        );
      return Array.isArray(value) ? encodeArray(value, depth) : encodeObject(value, depth);
    default:
      throw new PathedProblem(`is a ${typeof value}, which has no JSON form`);
  }
}
function encodeArray(items, depth) {
  let out = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out += ",";
    const item = items[index];
    try {
      out += item === void 0 ? "null" : encode(item, depth + 1);
    } catch (error) {
      if (error instanceof PathedProblem) error.path = `[${index}]${error.path}`;
      throw error;
    }
  }
  return `${out}]`;
}
function encodeObject(value, depth) {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new PathedProblem(`is a ${value.constructor.name}, not a plain object`);
  }
  const record = value;
  const keys = sortedKeys(record);
  let out = "{";
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === void 0) continue;
    if (!first) out += ",";
    first = false;
    if (!key.isWellFormed()) throw new PathedProblem(`has a key that ${LONE_SURROGATE_PROBLEM}`);
    try {
      out += `${JSON.stringify(key)}:${encode(member, depth + 1)}`;
    } catch (error) {
      if (error instanceof PathedProblem) error.path = `.${key}${error.path}`;
      throw error;
    }
  }
  return `${out}}`;
}

// src/core/events/event-envelope.ts
import { z } from "zod";
var identifier = z.string().min(1).max(256);
var TimestampSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, "expected an ISO-8601 UTC timestamp");
var EnvelopeFieldsSchema = z.strictObject({
  eventId: identifier,
  sessionId: identifier,
  sequence: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  timestamp: TimestampSchema,
  version: z.number().int().min(1),
  causationId: identifier.nullable(),
  correlationId: identifier.nullable(),
  // Only the discriminator is checked here, without copying the payload: the payload's own
  // schema validates it next, and this runs once per event read.
  payload: z.custom(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value) && typeof value.type === "string" && value.type.length > 0,
    'payload must be an object with a non-empty string "type"'
  )
});
var TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
var isIdentifier = (value) => typeof value === "string" && value.length >= 1 && value.length <= 256;
function hasWellFormedEnvelopeFields(candidate) {
  const payload = candidate.payload;
  return Object.keys(candidate).length === 8 && isIdentifier(candidate.eventId) && isIdentifier(candidate.sessionId) && Number.isSafeInteger(candidate.sequence) && candidate.sequence >= 1 && typeof candidate.timestamp === "string" && TIMESTAMP.test(candidate.timestamp) && Number.isSafeInteger(candidate.version) && candidate.version >= 1 && (candidate.causationId === null || isIdentifier(candidate.causationId)) && (candidate.correlationId === null || isIdentifier(candidate.correlationId)) && typeof payload === "object" && payload !== null && !Array.isArray(payload) && typeof payload.type === "string" && payload.type.length > 0;
}

// src/core/events/invalid-event-error.ts
var InvalidEventError = class extends CorrexError {
  constructor(sessionId, eventId, detail) {
    super("invalid_event", `session ${sessionId}, event ${eventId}: ${detail}`);
    this.sessionId = sessionId;
    this.eventId = eventId;
  }
  sessionId;
  eventId;
};
var InvalidAppendError = class extends CorrexError {
  constructor(detail) {
    super("invalid_append", detail);
  }
};

// src/core/events/event-codec.ts
function createEventCodec(catalog) {
  function normalize(event) {
    const eventId = String(event.eventId);
    const sessionId = String(event.sessionId);
    const rawPayload = event.payload;
    if (typeof rawPayload !== "object" || rawPayload === null || typeof rawPayload.type !== "string") {
      throw new InvalidEventError(
        sessionId,
        eventId,
        'payload must be an object with a string "type"'
      );
    }
    const version = catalog.currentVersion(rawPayload.type) ?? 1;
    const candidate = {
      eventId: event.eventId,
      sessionId: event.sessionId,
      sequence: 1,
      timestamp: event.timestamp,
      version,
      causationId: event.causationId ?? null,
      correlationId: event.correlationId ?? null,
      payload: rawPayload
    };
    if (!hasWellFormedEnvelopeFields(candidate)) {
      const fields = EnvelopeFieldsSchema.safeParse(candidate);
      if (!fields.success)
        throw new InvalidEventError(sessionId, eventId, describeIssue(fields.error.issues));
    }
    const parsed = catalog.safeParsePayload(rawPayload, version);
    if (!parsed.ok) throw new InvalidEventError(sessionId, eventId, parsed.problem.detail);
    return {
      eventId: candidate.eventId,
      sessionId: candidate.sessionId,
      timestamp: candidate.timestamp,
      version,
      causationId: candidate.causationId,
      correlationId: candidate.correlationId,
      payload: parsed.payload
    };
  }
  function readJson(bytes, where) {
    try {
      return JSON.parse(bytes);
    } catch (error) {
      throw new CorruptEventError(
        where.sessionId,
        where.sequence,
        "unreadable",
        `bytes are not JSON (${error.message})`
      );
    }
  }
  function parse(bytes, where, raw = readJson(bytes, where)) {
    const fields = EnvelopeFieldsSchema.safeParse(raw);
    if (!fields.success) {
      throw new CorruptEventError(
        where.sessionId,
        where.sequence,
        "unreadable",
        describeIssue(fields.error.issues)
      );
    }
    const envelope = fields.data;
    const parsed = catalog.safeParsePayload(
      envelope.payload,
      envelope.version
    );
    if (!parsed.ok) {
      throw new CorruptEventError(
        where.sessionId,
        where.sequence,
        parsed.problem.reason,
        parsed.problem.detail
      );
    }
    return { envelope, payload: parsed.payload };
  }
  return {
    catalog,
    normalize,
    encode: encodeEnvelope,
    decode(bytes, where) {
      const { envelope, payload } = parse(bytes, where);
      return { ...envelope, payload };
    },
    decodeRow(row) {
      return storedEventOf(row, row.hash, parse(row.bytes, row));
    },
    decodeVerifiedRow(row, hash) {
      const raw = readJson(row.bytes, row);
      return storedEventOf(
        row,
        hash,
        isCurrentEnvelope(raw) ? { envelope: raw, payload: raw.payload } : parse(row.bytes, row, raw)
      );
    },
    identity: (event) => canonicalJson({
      eventId: event.eventId,
      sessionId: event.sessionId,
      timestamp: event.timestamp,
      causationId: event.causationId,
      correlationId: event.correlationId,
      payload: event.payload
    })
  };
  function isCurrentEnvelope(raw) {
    if (typeof raw !== "object" || raw === null) return false;
    const envelope = raw;
    const payload = envelope.payload;
    return typeof envelope.eventId === "string" && typeof envelope.sessionId === "string" && typeof envelope.sequence === "number" && typeof envelope.timestamp === "string" && (envelope.causationId === null || typeof envelope.causationId === "string") && (envelope.correlationId === null || typeof envelope.correlationId === "string") && typeof payload === "object" && payload !== null && typeof payload.type === "string" && catalog.currentVersion(payload.type) === envelope.version;
  }
  function storedEventOf(row, hash, { envelope, payload }) {
    {
      if (envelope.sessionId !== row.sessionId || envelope.sequence !== row.sequence || row.eventId !== void 0 && envelope.eventId !== row.eventId) {
        throw new CorruptEventError(
          row.sessionId,
          row.sequence,
          "mismatch",
          `row says event ${row.eventId ?? envelope.eventId} at ${row.sessionId}#${row.sequence}, bytes say ${envelope.eventId} at ${envelope.sessionId}#${envelope.sequence}`
        );
      }
      return {
        eventId: envelope.eventId,
        sessionId: envelope.sessionId,
        sequence: envelope.sequence,
        timestamp: envelope.timestamp,
        version: envelope.version,
        causationId: envelope.causationId,
        correlationId: envelope.correlationId,
        payload,
        position: row.position,
        hash
      };
    }
  }
}
function describeIssue(issues) {
  const issue = issues[0];
  return `${issue?.path.map(String).join(".") || "envelope"}: ${issue?.message ?? "invalid"}`;
}
function encodeEnvelope(event, sequence) {
  if (!Number.isSafeInteger(sequence))
    throw new RangeError(`sequence ${sequence} is not a safe integer`);
  return `{"causationId":${event.causationId === null ? "null" : JSON.stringify(event.causationId)},"correlationId":${event.correlationId === null ? "null" : JSON.stringify(event.correlationId)},"eventId":${JSON.stringify(event.eventId)},"payload":${canonicalJson(event.payload)},"sequence":${sequence},"sessionId":${JSON.stringify(event.sessionId)},"timestamp":${JSON.stringify(event.timestamp)},"version":${event.version}}`;
}

export {
  NonCanonicalValueError,
  canonicalJson,
  TimestampSchema,
  InvalidAppendError,
  createEventCodec
};

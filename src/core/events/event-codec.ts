import type { z } from 'zod';
import { canonicalJson, type JsonObject } from './canonical-json.js';
import { CorruptEventError } from './corrupt-event-error.js';
import type { EventCatalog } from './event-catalog.js';
import {
  EnvelopeFieldsSchema,
  hasWellFormedEnvelopeFields,
  hasWellFormedFields,
  type EventEnvelope,
  type NewEvent,
  type PayloadShape,
  type StoredEvent,
} from './event-envelope.js';
import { InvalidEventError } from './invalid-event-error.js';
import { envelopeBytes, type EnvelopeAround } from './envelope-bytes.js';
import { createShapeEncoder, type ShapeEncoder } from './shape-encoder.js';

/** A new event whose payload has been validated and whose version is fixed. */
export type NormalizedEvent<Payload extends PayloadShape> = Omit<
  EventEnvelope<Payload>,
  'sequence'
>;

/** A stored event as a store keeps it: canonical bytes plus the columns it is indexed by. */
export type EventRow = {
  readonly position: number;
  readonly sessionId: string;
  readonly sequence: number;
  /**
   * The event id column. Session reads may leave it out: the id they return is the one in the
   * bytes, which the hash chain vouches for, and a column no read returns needs no check there.
   */
  readonly eventId?: string;
  readonly bytes: string;
  /**
   * The row as a store keeps it when it keeps the envelope in columns (SQLite, schema 6): the
   * payload's text and the envelope fields that `bytes` was rebuilt from. Decoding then parses
   * only the payload; the hash over `bytes` still vouches for every field.
   */
  readonly split?: { readonly payloadText: string; readonly envelope: EnvelopeAround } | undefined;
  readonly hash: string;
  /**
   * The hash this row was chained to, as stored. Session reads may leave it out: they check the
   * chain against the previous row they read, which is the stronger check anyway.
   */
  readonly previousHash?: string;
};

/** A row read with the hash it was chained to, so it can be checked on its own (global feed reads). */
export type ChainedEventRow = EventRow & { readonly previousHash: string };

type Where = { readonly sessionId: string; readonly sequence: number };

export type EventCodec<Payload extends PayloadShape> = {
  readonly catalog: EventCatalog<Payload>;
  /** Validates an event offered for append. Throws InvalidEventError. */
  normalize(event: NewEvent<Payload>): NormalizedEvent<Payload>;
  /**
   * `normalize`, remembering the payload it returns as validated, so offered again (appended
   * after it was folded, as held results are) it is not parsed a second time. Plain `normalize`
   * (a store's append) does not remember: its payloads are not offered again, and remembering
   * costs a weak-map entry per event.
   */
  normalizeForReuse(event: NewEvent<Payload>): NormalizedEvent<Payload>;
  /** The canonical bytes of the envelope `event` becomes at `sequence`. */
  encode(event: NormalizedEvent<Payload>, sequence: number): string;
  /**
   * The canonical text of a normalized event's payload: what `encode` writes under `payload`
   * (its type's shape encoder, else the general canonicalizer).
   */
  encodePayload(payload: Payload): string;
  /** Parses, upcasts and validates stored bytes. Throws CorruptEventError naming where. */
  decode(bytes: string, where: Where): EventEnvelope<Payload>;
  /** Decodes a row and checks its columns against its bytes. Hash checks are the reader's. */
  decodeRow(row: EventRow): StoredEvent<Payload>;
  /**
   * Decodes a row whose hash the caller has just checked against its bytes. Those bytes are what
   * `normalize` validated and `encode` wrote, so an envelope at the payload's current version is
   * taken as stored (no schema pass); an older version is upcast and validated as in `decodeRow`.
   * Anything unexpected falls back to the full check, so corrupt bytes still get a named error.
   * `hash` is the checked hash, which the row need not carry (streams read few stored hashes).
   */
  decodeVerifiedRow(row: Omit<EventRow, 'hash'>, hash: string): StoredEvent<Payload>;
  /** Canonical text of what makes two appends "the same event" (everything but store-assigned fields). */
  identity(event: NormalizedEvent<Payload> | EventEnvelope<Payload>): string;
};

type EnvelopeFields = z.infer<typeof EnvelopeFieldsSchema>;

/**
 * Payloads a codec's `normalizeForReuse` produced, with the catalog that validated them (at the
 * type's current version). Offered again (a held result appended after it was folded), such a
 * payload is taken as it is instead of going through its schema a
 * second time: validate once. Only objects the schema pass created are listed, never one a
 * caller handed in, so what is trusted is what a codec itself wrote; events are immutable values
 * (their types are readonly all the way down), so it is still exactly what was validated.
 * Shared by every codec in the process: the kernel folds held results through its own codec and
 * the store appends them through another, both over the same catalog.
 */
const validatedPayloads = new WeakMap<object, EventCatalog<PayloadShape>>();

export function createEventCodec<Payload extends PayloadShape>(
  catalog: EventCatalog<Payload>,
): EventCodec<Payload> {
  function normalize(event: NewEvent<Payload>, remember: boolean): NormalizedEvent<Payload> {
    const eventId = String(event.eventId);
    const sessionId = String(event.sessionId);
    const rawPayload = event.payload as unknown;
    if (
      typeof rawPayload !== 'object' ||
      rawPayload === null ||
      typeof (rawPayload as PayloadShape).type !== 'string'
    ) {
      throw new InvalidEventError(
        sessionId,
        eventId,
        'payload must be an object with a string "type"',
      );
    }
    const version = catalog.currentVersion((rawPayload as PayloadShape).type) ?? 1;
    const causationId = event.causationId ?? null;
    const correlationId = event.correlationId ?? null;
    if (
      !hasWellFormedFields(
        event.eventId,
        event.sessionId,
        event.timestamp,
        version,
        causationId,
        correlationId,
        rawPayload,
      )
    ) {
      const fields = EnvelopeFieldsSchema.safeParse({
        eventId: event.eventId,
        sessionId: event.sessionId,
        sequence: 1,
        timestamp: event.timestamp,
        version,
        causationId,
        correlationId,
        payload: rawPayload,
      });
      if (!fields.success)
        throw new InvalidEventError(sessionId, eventId, describeIssue(fields.error.issues));
    }
    let payload: Payload;
    if (validatedPayloads.get(rawPayload) === catalog) payload = rawPayload as Payload;
    else {
      const parsed = catalog.safeParsePayload(rawPayload as JsonObject & PayloadShape, version);
      if (!parsed.ok) throw new InvalidEventError(sessionId, eventId, parsed.problem.detail);
      payload = parsed.payload;
      if (remember && payload !== rawPayload) validatedPayloads.set(payload, catalog);
    }
    return {
      eventId: event.eventId,
      sessionId: event.sessionId,
      timestamp: event.timestamp,
      version,
      causationId,
      correlationId,
      payload,
    };
  }

  function readJson(bytes: string, where: Where): unknown {
    try {
      return JSON.parse(bytes);
    } catch (error) {
      throw new CorruptEventError(
        where.sessionId,
        where.sequence,
        'unreadable',
        `bytes are not JSON (${(error as Error).message})`,
      );
    }
  }

  function parse(bytes: string, where: Where, raw: unknown = readJson(bytes, where)) {
    const envelope = envelopeFieldsOf(raw, where);
    const parsed = catalog.safeParsePayload(
      envelope.payload as JsonObject & PayloadShape,
      envelope.version,
    );
    if (!parsed.ok) {
      throw new CorruptEventError(
        where.sessionId,
        where.sequence,
        parsed.problem.reason,
        parsed.problem.detail,
      );
    }
    return { envelope, payload: parsed.payload };
  }

  /**
   * One shape encoder per catalog type, made on first use: payloads of a type come in one key
   * order, so each is written without sorting its keys (the text is canonicalJson's).
   */
  const shapeEncoders = new Map<string, ShapeEncoder>();
  function payloadJson(payload: PayloadShape): string {
    let encoder = shapeEncoders.get(payload.type);
    if (encoder === undefined && catalog.definitions.has(payload.type)) {
      encoder = createShapeEncoder();
      shapeEncoders.set(payload.type, encoder);
    }
    return encoder?.(payload) ?? canonicalJson(payload);
  }

  /**
   * The envelope fields of parsed bytes, checked. Fields the hand-written check accepts are taken
   * as parsed (the schema would accept them and copy them unchanged); anything else goes through
   * the schema, whose issue is the error. Runs once per event of every full decode (verify).
   */
  function envelopeFieldsOf(raw: unknown, where: Where): EnvelopeFields {
    if (
      typeof raw === 'object' &&
      raw !== null &&
      !Array.isArray(raw) &&
      hasWellFormedEnvelopeFields(raw as EnvelopeFields)
    )
      return raw as EnvelopeFields;
    const fields = EnvelopeFieldsSchema.safeParse(raw);
    if (!fields.success) {
      throw new CorruptEventError(
        where.sessionId,
        where.sequence,
        'unreadable',
        describeIssue(fields.error.issues),
      );
    }
    return fields.data;
  }

  return {
    catalog,
    normalize: (event) => normalize(event, false),
    normalizeForReuse: (event) => normalize(event, true),
    encode: (event, sequence) => envelopeBytes(event, sequence, payloadJson(event.payload)),
    encodePayload: payloadJson,
    decode(bytes, where) {
      const { envelope, payload } = parse(bytes, where);
      return { ...envelope, payload };
    },
    decodeRow(row) {
      return storedEventOf(row, row.hash, parse(row.bytes, row, rawRowOf(row)));
    },
    decodeVerifiedRow(row, hash) {
      const raw = rawRowOf(row);
      return storedEventOf(
        row,
        hash,
        isCurrentEnvelope(raw)
          ? { envelope: raw, payload: raw.payload as Payload }
          : parse(row.bytes, row, raw),
      );
    },
    identity: (event) =>
      canonicalJson({
        eventId: event.eventId,
        sessionId: event.sessionId,
        timestamp: event.timestamp,
        causationId: event.causationId,
        correlationId: event.correlationId,
        payload: event.payload,
      }),
  };

  /**
   * A row's envelope as parsing its bytes would give it. A split row's fields are taken from its
   * columns and only the payload text is parsed: `bytes` is those fields written around that
   * text, and JSON gives back each id and a safe-integer version as written. Anything else (a hand
   * edit) is parsed from the bytes, so its error is the one the bytes give.
   */
  function rawRowOf(row: Omit<EventRow, 'hash'>): unknown {
    const split = row.split;
    if (split === undefined || !Number.isSafeInteger(split.envelope.version))
      return readJson(row.bytes, row);
    const { envelope } = split;
    return {
      causationId: envelope.causationId,
      correlationId: envelope.correlationId,
      eventId: envelope.eventId,
      payload: readJson(split.payloadText, row),
      sequence: row.sequence,
      sessionId: envelope.sessionId,
      timestamp: envelope.timestamp,
      version: envelope.version,
    };
  }

  /** The envelope fields of bytes this codec wrote, at the payload type's current version. */
  function isCurrentEnvelope(raw: unknown): raw is EnvelopeFields {
    if (typeof raw !== 'object' || raw === null) return false;
    const envelope = raw as Record<string, unknown>;
    const payload = envelope.payload as { type?: unknown } | null | undefined;
    return (
      typeof envelope.eventId === 'string' &&
      typeof envelope.sessionId === 'string' &&
      typeof envelope.sequence === 'number' &&
      typeof envelope.timestamp === 'string' &&
      (envelope.causationId === null || typeof envelope.causationId === 'string') &&
      (envelope.correlationId === null || typeof envelope.correlationId === 'string') &&
      typeof payload === 'object' &&
      payload !== null &&
      typeof payload.type === 'string' &&
      catalog.currentVersion(payload.type) === envelope.version
    );
  }

  function storedEventOf(
    row: Omit<EventRow, 'hash'>,
    hash: string,
    { envelope, payload }: { envelope: EnvelopeFields; payload: Payload },
  ): StoredEvent<Payload> {
    {
      if (
        envelope.sessionId !== row.sessionId ||
        envelope.sequence !== row.sequence ||
        (row.eventId !== undefined && envelope.eventId !== row.eventId)
      ) {
        throw new CorruptEventError(
          row.sessionId,
          row.sequence,
          'mismatch',
          `row says event ${row.eventId ?? envelope.eventId} at ${row.sessionId}#${row.sequence}, bytes say ${envelope.eventId} at ${envelope.sessionId}#${envelope.sequence}`,
        );
      }
      // Built once rather than spread twice: this is the read hot path.
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
        hash,
      };
    }
  }
}

function describeIssue(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  const issue = issues[0];
  return `${issue?.path.map(String).join('.') || 'envelope'}: ${issue?.message ?? 'invalid'}`;
}

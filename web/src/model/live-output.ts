import type { EventDto } from '../../../src/interfaces/protocol/event-dto.js';
import type { ServerMessage } from '../../../src/interfaces/protocol/server-message.js';
import { text } from './payload-fields.js';

export type LiveMessage = Extract<ServerMessage, { type: 'live' }>;

/** What a model call or a command has produced so far, not recorded yet. */
export type LiveStream = {
  readonly kind: LiveMessage['kind'];
  /** The model call's `requestId` (or request digest), or the command's `callId`. */
  readonly id: string;
  readonly text: string;
};

/**
 * The work in progress of a session, from the server's `live` messages: a view that the
 * recorded result replaces. A stream ends when its `inference_completed` or `tool_receipt`
 * arrives; a piece that comes after that is dropped. Immutable: each change
 * is a new value, so a page re-renders on it.
 */
export type LiveOutput = {
  /** By `kind:id`, in the order they started. */
  readonly streams: ReadonlyMap<string, LiveStream>;
  /** Streams whose recorded result arrived. */
  readonly settled: ReadonlySet<string>;
};

export const EMPTY_LIVE_OUTPUT: LiveOutput = { streams: new Map(), settled: new Set() };

const key = (kind: LiveMessage['kind'], id: string) => `${kind}:${id}`;

/** Adds one piece to its stream. */
export function addLiveChunk(live: LiveOutput, message: LiveMessage): LiveOutput {
  const at = key(message.kind, message.id);
  if (live.settled.has(at) || message.chunk === '') return live;
  const streams = new Map(live.streams);
  const before = streams.get(at);
  streams.set(at, {
    kind: message.kind,
    id: message.id,
    text: (before?.text ?? '') + message.chunk,
  });
  return { streams, settled: live.settled };
}

/** The events that end a session's run: whatever was still streaming is not any more. */
const RUN_ENDED = new Set([
  'workflow_completed',
  'workflow_failed',
  'workflow_cancelled',
  'orchestration_paused',
]);

/**
 * Ends the streams whose recorded result is among `events`. A failed model call is only
 * cleared (a retry may ask again under the same id), and so is everything at a pause or an
 * end (a paused call runs again on resume under its id).
 */
export function settleLiveOutput(live: LiveOutput, events: readonly EventDto[]): LiveOutput {
  const settle: string[] = [];
  const clear: string[] = [];
  let all = false;
  for (const event of events) {
    const payload = event.payload;
    switch (event.type) {
      case 'inference_completed':
      case 'inference_failed': {
        const into = event.type === 'inference_completed' ? settle : clear;
        const requestId = text(payload, 'requestId');
        const digest = text(payload, 'requestDigest');
        if (requestId !== undefined) into.push(key('model_text', requestId));
        if (digest !== undefined) into.push(key('model_text', digest));
        break;
      }
      case 'tool_receipt':
      case 'tool_call_interrupted': {
        const callId = text(payload, 'callId');
        if (callId !== undefined) settle.push(key('command_output', callId));
        break;
      }
      default:
        if (RUN_ENDED.has(event.type)) all = true;
    }
  }
  if (settle.length === 0 && clear.length === 0 && !all) return live;
  const streams = all ? new Map<string, LiveStream>() : new Map(live.streams);
  const settled = new Set(live.settled);
  for (const at of [...settle, ...clear]) streams.delete(at);
  for (const at of settle) settled.add(at);
  return { streams, settled };
}

/** What a running command has printed so far, if anything came live. */
export function liveCommandOutput(live: LiveOutput, callId: string): string | undefined {
  return live.streams.get(key('command_output', callId))?.text;
}

/** The text of the model calls being answered now, oldest first. */
export function liveModelText(live: LiveOutput): LiveStream[] {
  return [...live.streams.values()].filter((stream) => stream.kind === 'model_text');
}

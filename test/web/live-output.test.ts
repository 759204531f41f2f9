import { describe, expect, it } from 'vitest';
import type { EventDto } from '../../src/interfaces/protocol/event-dto.js';
import {
  addLiveChunk,
  EMPTY_LIVE_OUTPUT,
  liveCommandOutput,
  liveModelText,
  settleLiveOutput,
  type LiveMessage,
  type LiveOutput,
} from '../../web/src/model/live-output.js';

const chunk = (kind: LiveMessage['kind'], id: string, text: string): LiveMessage => ({
  type: 'live',
  sessionId: 's1',
  kind,
  id,
  chunk: text,
});

let sequence = 0;
function event(payload: { type: string; [key: string]: unknown }): EventDto {
  sequence += 1;
  return {
    eventId: `e${sequence}`,
    sessionId: 's1',
    sequence,
    timestamp: '2026-12-03T12:00:00.000Z',
    version: 1,
    causationId: null,
    correlationId: null,
    type: payload.type,
    payload,
  };
}

const fold = (live: LiveOutput, ...messages: LiveMessage[]) =>
  messages.reduce((state, message) => addLiveChunk(state, message), live);

describe('live output', () => {
  it("gathers a command's output and a model's text by id, in order", () => {
    const live = fold(
      EMPTY_LIVE_OUTPUT,
      chunk('model_text', 'implement.1.1', 'I will '),
      chunk('command_output', 'call-1', 'line 1\n'),
      chunk('model_text', 'implement.1.1', 'run it.'),
      chunk('command_output', 'call-1', 'line 2\n'),
    );
    expect(liveCommandOutput(live, 'call-1')).toBe('line 1\nline 2\n');
    expect(liveCommandOutput(live, 'call-2')).toBeUndefined();
    expect(liveModelText(live)).toEqual([
      { kind: 'model_text', id: 'implement.1.1', text: 'I will run it.' },
    ]);
    // Immutable: the empty state is untouched.
    expect(EMPTY_LIVE_OUTPUT.streams.size).toBe(0);
  });

  it('gives way to the recorded result, and drops a piece that comes after it', () => {
    let live = fold(
      EMPTY_LIVE_OUTPUT,
      chunk('model_text', 'implement.1.1', 'partial'),
      chunk('model_text', 'digest-of-a-resumed-call', 'resumed'),
      chunk('command_output', 'call-1', 'line 1\n'),
    );
    live = settleLiveOutput(live, [
      event({ type: 'tool_receipt', callId: 'call-1', output: 'line 1\n' }),
      event({ type: 'inference_completed', requestId: 'implement.1.1', requestDigest: 'x' }),
      event({
        type: 'inference_completed',
        requestId: 'implement.1.2',
        requestDigest: 'digest-of-a-resumed-call',
      }),
    ]);
    expect(live.streams.size).toBe(0);
    live = fold(live, chunk('command_output', 'call-1', 'late\n'));
    expect(liveCommandOutput(live, 'call-1')).toBeUndefined();
  });

  it('clears a failed call and a paused run without settling them: a retry streams again', () => {
    let live = fold(EMPTY_LIVE_OUTPUT, chunk('model_text', 'implement.1.1', 'cut off'));
    live = settleLiveOutput(live, [
      event({ type: 'inference_failed', requestId: 'implement.1.1' }),
    ]);
    expect(liveModelText(live)).toEqual([]);
    live = fold(live, chunk('model_text', 'implement.1.1', 'again'));
    expect(liveModelText(live).map((stream) => stream.text)).toEqual(['again']);
    live = settleLiveOutput(live, [event({ type: 'orchestration_paused' })]);
    expect(live.streams.size).toBe(0);
    live = fold(live, chunk('model_text', 'implement.1.1', 'resumed'));
    expect(liveModelText(live).map((stream) => stream.text)).toEqual(['resumed']);
  });

  it('returns the same state when nothing changes', () => {
    const live = fold(EMPTY_LIVE_OUTPUT, chunk('command_output', 'call-1', 'x'));
    expect(settleLiveOutput(live, [event({ type: 'stage_started' })])).toBe(live);
    expect(addLiveChunk(live, chunk('command_output', 'call-1', ''))).toBe(live);
  });
});

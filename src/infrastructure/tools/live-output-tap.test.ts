import { describe, expect, it } from 'vitest';
import { LIVE_OUTPUT_CUT_MARKER, LIVE_OUTPUT_LIMIT_CHARS } from '../../core/base/live-output.js';
import { createLiveOutputTap } from './live-output-tap.js';

describe('createLiveOutputTap', () => {
  it('decodes a character split across two reads whole, and names the call', () => {
    const seen: [string, string][] = [];
    const tap = createLiveOutputTap('call-1', (callId, chunk) => seen.push([callId, chunk]));
    const bytes = Buffer.from('héllo\n', 'utf8');
    tap.push(bytes.subarray(0, 2));
    tap.push(bytes.subarray(2));
    tap.end();
    expect(seen.map(([, chunk]) => chunk).join('')).toBe('héllo\n');
    expect(seen.every(([callId]) => callId === 'call-1')).toBe(true);
  });

  it('stops at the limit with the marker, and survives a watcher that throws', () => {
    let shown = '';
    const tap = createLiveOutputTap('call-2', (_callId, chunk) => {
      shown += chunk;
      throw new Error('a broken watcher');
    });
    for (let index = 0; index < 10; index += 1) tap.push(Buffer.alloc(10_000, 'x'));
    tap.end();
    expect(shown).toBe('x'.repeat(LIVE_OUTPUT_LIMIT_CHARS) + LIVE_OUTPUT_CUT_MARKER);
  });
});

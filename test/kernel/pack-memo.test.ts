import { describe, expect, it } from 'vitest';
import { benchConfig, recordSession } from '../../bench/bench-session.js';
import { canonicalJson } from '../../src/core/events/canonical-json.js';
import { createPackMemo } from '../../src/core/context/pack-memo.js';
import { createEstimatingTokenizer } from '../../src/core/context/tokenizer.js';
import { sha256Hex } from '../../src/core/base/sha256.js';
import type { KernelConfig } from '../../src/core/kernel/index.js';

/*
 * The pack memo (context/pack-memo.ts) only saves work: a session recorded with it stores the
 * same bytes as one recorded without it, every inference_requested (manifest, digests) included.
 */

function withoutMemo(config: KernelConfig): KernelConfig {
  const { packMemo, ...afresh } = config;
  expect(packMemo).toBeDefined();
  return afresh;
}

async function recordedBytes(options: { memo: boolean; turns: number; calls: number }) {
  const config = benchConfig();
  const { store } = await recordSession(options.turns, {
    callsPerTurn: options.calls,
    config: options.memo ? config : withoutMemo(config),
  });
  const events = await store.read('bench');
  return events.map((event) => canonicalJson(event));
}

describe('pack memo', () => {
  it.each([
    { turns: 60, calls: 1 },
    { turns: 3, calls: 50 },
  ])('records the same bytes with and without it ($turns turns of $calls calls)', async (shape) => {
    const memoised = await recordedBytes({ memo: true, ...shape });
    const afresh = await recordedBytes({ memo: false, ...shape });
    expect(memoised.filter((event) => event.includes('"inference_requested"')).length).toBe(
      shape.turns + 1,
    );
    expect(memoised).toEqual(afresh);
  });

  it('gives what the tokenizer and the hash give, across generations', () => {
    // A generation of 40 characters: every few texts the older one is forgotten.
    const memo = createPackMemo(40);
    const tokenizer = createEstimatingTokenizer();
    const texts = Array.from({ length: 30 }, (_, index) => `text ${index % 7} `.repeat(index % 5));
    for (const round of [1, 2, 3])
      for (const text of texts) {
        expect(memo.tokens(tokenizer, text), `round ${round}`).toBe(tokenizer.count(text));
        expect(memo.digest(sha256Hex, text)).toBe(sha256Hex(text));
      }
  });

  it('keeps apart what different functions derive from one text', () => {
    const memo = createPackMemo();
    const upper = (text: string) => text.toUpperCase();
    expect(memo.digest(sha256Hex, 'a')).toBe(sha256Hex('a'));
    expect(memo.digest(upper, 'a')).toBe('A');
    expect(memo.tokens({ name: 'one', count: () => 1 }, 'a')).toBe(1);
    expect(memo.tokens({ name: 'two', count: () => 2 }, 'a')).toBe(2);
  });
});

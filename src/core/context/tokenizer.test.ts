import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressHeadTail, omissionMarker } from './compress-head-tail.js';
import { createEstimatingTokenizer, estimateTokens } from './tokenizer.js';

describe('estimating tokenizer', () => {
  it('counts word runs by four characters, punctuation and non-ASCII one each', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('hello')).toBe(2);
    expect(estimateTokens('hello world')).toBe(4);
    expect(estimateTokens('a.b')).toBe(3);
    expect(estimateTokens('line\n\nnext')).toBe(3);
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('😀')).toBe(1);
  });

  it('is never below one token per five characters of ASCII prose', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', minLength: 1 }), (text) => {
        expect(estimateTokens(text) * 5).toBeGreaterThanOrEqual(text.replace(/\s+/g, '').length);
      }),
    );
  });
});

describe('compressHeadTail', () => {
  const tokenizer = createEstimatingTokenizer();

  it('leaves content that fits untouched', () => {
    expect(compressHeadTail('short', 10, tokenizer)).toEqual({ content: 'short', tokens: 2 });
  });

  it('keeps head and tail with a marker saying how much is missing', () => {
    const content = `BEGIN ${'x'.repeat(4000)} END`;
    const compressed = compressHeadTail(content, 60, tokenizer)!;
    expect(compressed.tokens).toBeLessThanOrEqual(60);
    expect(compressed.content.startsWith('BEGIN')).toBe(true);
    expect(compressed.content.endsWith('END')).toBe(true);
    expect(compressed.content).toMatch(/\[\.\.\. \d+ characters omitted by correx \.\.\.\]/);
  });

  it('gives up (undefined) when not even the marker fits', () => {
    expect(compressHeadTail('y'.repeat(1000), 3, tokenizer)).toBeUndefined();
    expect(estimateTokens(omissionMarker(1000))).toBeGreaterThan(3);
  });

  it('never exceeds the target', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 2000 }),
        fc.integer({ min: 1, max: 300 }),
        (content, target) => {
          const compressed = compressHeadTail(content, target, tokenizer);
          if (compressed !== undefined) {
            expect(compressed.tokens).toBeLessThanOrEqual(target);
            expect(tokenizer.count(compressed.content)).toBe(compressed.tokens);
          }
        },
      ),
    );
  });
});

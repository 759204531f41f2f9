import { describe, expect, it } from 'vitest';
import { wellFormedDeep } from './well-formed.js';

describe('wellFormedDeep', () => {
  it('replaces lone surrogates in strings and keys at any depth, keeping pairs and the input', () => {
    const input = { out: 'a\ud800b', list: ['ok', '\udc00'], nested: { '\ud83d': '😀' }, n: 1 };
    expect(wellFormedDeep(input)).toEqual({
      out: 'a\uFFFDb',
      list: ['ok', '\uFFFD'],
      nested: { '\uFFFD': '😀' },
      n: 1,
    });
    expect(input.out).toBe('a\ud800b');
    expect(wellFormedDeep('\ude00\ud83d')).toBe('\uFFFD\uFFFD');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/base/sha256.js';
import { nodeSha256 } from './node-sha256.js';

describe('nodeSha256', () => {
  it('agrees with the pure implementation in core (property)', () => {
    expect(nodeSha256('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 500 }),
        (text) => nodeSha256(text) === sha256Hex(text),
      ),
    );
  });
});

import { randomBytes } from 'node:crypto';
import type { IdSource } from '../../core/base/id-source.js';

/**
 * RFC 9562 UUIDv7 ids: a millisecond timestamp followed by randomness, so ids sort by
 * creation time. Time-ordered ids keep unique-index inserts cheap (random ids cost several
 * times more at scale). Within one millisecond a counter keeps them increasing.
 */
export function createUuidV7IdSource(now: () => number = Date.now): IdSource {
  let lastMs = -1;
  let counter = 0;
  return {
    next() {
      let ms = now();
      if (ms <= lastMs) {
        ms = lastMs;
        counter += 1;
        if (counter > 0xfff) {
          ms = lastMs + 1;
          counter = 0;
        }
      } else {
        counter = 0;
      }
      lastMs = ms;
      const bytes = randomBytes(16);
      bytes.writeUIntBE(ms, 0, 6);
      bytes[6] = 0x70 | (counter >> 8);
      bytes[7] = counter & 0xff;
      bytes[8] = 0x80 | (bytes[8]! & 0x3f);
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

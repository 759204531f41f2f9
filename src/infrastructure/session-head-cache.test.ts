import { describe, expect, it } from 'vitest';
import { SessionHeadCache } from './session-head-cache.js';

describe('session head cache', () => {
  it('forgets the least recently written session beyond its limit', () => {
    const heads = new SessionHeadCache(2);
    heads.set('a', { sequence: 1, hash: 'ha' });
    heads.set('b', { sequence: 1, hash: 'hb' });
    heads.set('a', { sequence: 2, hash: 'ha2' });
    heads.set('c', { sequence: 1, hash: 'hc' });
    expect(heads.get('b')).toBeUndefined();
    expect(heads.get('a')).toEqual({ sequence: 2, hash: 'ha2' });
    heads.forget('a');
    expect(heads.get('a')).toBeUndefined();
    expect(heads.get('c')).toEqual({ sequence: 1, hash: 'hc' });
    heads.clear();
    expect(heads.get('c')).toBeUndefined();
  });
});

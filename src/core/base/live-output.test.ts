import { describe, expect, it } from 'vitest';
import { createLiveOutputBudget, LIVE_OUTPUT_CUT_MARKER } from './live-output.js';

describe('createLiveOutputBudget', () => {
  it('passes text through in pieces no longer than the chunk limit', () => {
    const budget = createLiveOutputBudget(100, 4);
    expect(budget.take('abcdefghij')).toEqual(['abcd', 'efgh', 'ij']);
    expect(budget.take('')).toEqual([]);
  });

  it('cuts at the limit once, with the marker, and sends nothing after', () => {
    const budget = createLiveOutputBudget(10, 1_000);
    expect(budget.take('123456')).toEqual(['123456']);
    expect(budget.take('7890abc')).toEqual([`7890${LIVE_OUTPUT_CUT_MARKER}`]);
    expect(budget.take('more')).toEqual([]);
  });
});

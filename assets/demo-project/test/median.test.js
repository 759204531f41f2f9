import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median } from '../src/median.js';

test('the middle value of an odd-sized list', () => {
  assert.equal(median([3, 1, 2]), 2);
});

test('numbers are ordered by value, not as text', () => {
  assert.equal(median([10, 9, 2]), 9);
});

test('the mean of the two middle values of an even-sized list', () => {
  assert.equal(median([1, 100, 25, 4]), 14.5);
});

test('an empty list is an error', () => {
  assert.throws(() => median([]), RangeError);
});

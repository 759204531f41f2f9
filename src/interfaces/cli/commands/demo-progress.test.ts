import { describe, expect, it } from 'vitest';
import { demoProblem } from './demo-progress.js';

describe('demoProblem', () => {
  it('passes only a completed workflow whose sample tests pass', () => {
    expect(demoProblem({ status: 'completed', testsPass: true })).toBeNull();
    expect(demoProblem({ status: 'failed', testsPass: false })).toBe(
      'the workflow ended failed, not completed',
    );
    expect(demoProblem({ status: 'completed', testsPass: false })).toBe(
      "the workflow completed but the sample's tests still fail",
    );
  });
});

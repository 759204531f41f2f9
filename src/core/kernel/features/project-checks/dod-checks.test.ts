import { describe, expect, it } from 'vitest';
import { parseDiagnostics } from './dod-checks.js';

describe('parseDiagnostics', () => {
  it('reads the usual compiler and linter formats, inside the workspace only', () => {
    const output = [
      "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'Date'.",
      'src/b.ts:3:7: error: unused variable',
      'src/c.ts:9 - warning: shadowed name',
      '/elsewhere/d.ts:1:1: error: not ours',
      '../up.ts:1:1: error: escapes',
      'Found 2 errors.',
    ].join('\n');
    expect(parseDiagnostics(output, '/w')).toEqual([
      {
        path: '/w/src/a.ts',
        line: 12,
        message: "error TS2322: Type 'string' is not assignable to type 'Date'.",
      },
      { path: '/w/src/b.ts', line: 3, message: 'error: unused variable' },
      { path: '/w/src/c.ts', line: 9, message: 'warning: shadowed name' },
    ]);
  });
});

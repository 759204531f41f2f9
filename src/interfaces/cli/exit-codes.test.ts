import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { exitCodeOf } from './run-summary.js';

/** The documented table is the contract scripts rely on: it must list exactly the codes used. */
describe('exit codes', () => {
  it('docs/headless.md lists every exit code once, and no other', () => {
    const doc = readFileSync(new URL('../../../docs/headless.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('## Exit codes'), doc.indexOf('## Prompt mode'));
    const documented = [...table.matchAll(/^\| (\d+) +\|/gm)].map((match) => Number(match[1]));
    expect(documented).toEqual(Object.values(EXIT_CODES).sort((a, b) => a - b));
  });

  it('maps how a session ended onto the table', () => {
    expect(exitCodeOf('completed', null)).toBe(0);
    expect(exitCodeOf('failed', 'tool')).toBe(1);
    expect(exitCodeOf('failed', 'configuration')).toBe(2);
    expect(exitCodeOf('paused', null)).toBe(4);
    expect(exitCodeOf('running', null)).toBe(4);
    expect(exitCodeOf('cancelled', null)).toBe(5);
  });
});

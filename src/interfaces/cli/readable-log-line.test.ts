import { describe, expect, it } from 'vitest';
import { readableLogLine } from './readable-log-line.js';

describe('readableLogLine', () => {
  it('turns a pino record into one line a person reads', () => {
    const record = JSON.stringify({
      level: 50,
      time: 1,
      pid: 2,
      hostname: 'h',
      sessionId: 's1',
      err: { message: 'disk full', stack: 'Error: disk full\n    at x' },
      msg: 'session failed',
    });
    expect(readableLogLine(record)).toBe(
      'correx serve: error: session failed (sessionId=s1): disk full',
    );
    expect(readableLogLine(JSON.stringify({ level: 30, msg: 'session stopped' }))).toBe(
      'correx serve: session stopped',
    );
    expect(readableLogLine('not json \x1b[2J\n')).toBe('not json \\x1b[2J');
  });
});

import { describe, expect, it } from 'vitest';
import { terminalSafe } from './terminal-safe.js';

describe('terminalSafe', () => {
  it("lets correx's own colours through and escapes every other escape", () => {
    expect(terminalSafe('\x1b[32m✓ ok\x1b[0m\n\tnext')).toBe('\x1b[32m✓ ok\x1b[0m\n\tnext');
    expect(terminalSafe('out \x1b]52;c;aGk=\x07 \x1b[2J \x1b[8mhidden')).toBe(
      'out \\x1b]52;c;aGk=\\x07 \\x1b[2J \\x1b[8mhidden',
    );
    expect(terminalSafe('\x1b]8;;https://x.test\x1b\\link')).not.toContain('\x1b');
    expect(terminalSafe('a\u202Eb')).toBe('a\\u{202E}b');
  });
});

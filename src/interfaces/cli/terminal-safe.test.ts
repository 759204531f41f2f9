import { describe, expect, it } from 'vitest';
import { pipeSafe, terminalSafe } from './terminal-safe.js';

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

describe('pipeSafe', () => {
  it('escapes every escape but correx colours, and leaves JSON valid with the same values', () => {
    const value = { name: 'evil\x1b]52;c;aGk=\x07\u009b2J\u202E\u{E0041}\x7f.txt', n: 'a\tb' };
    const line = pipeSafe(JSON.stringify(value));
    expect(line).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(JSON.parse(line)).toEqual(value);
    expect(pipeSafe('\x1b[32m✓\x1b[0m \x1b[2J\n\tx')).toBe('\x1b[32m✓\x1b[0m \\u001b[2J\n\tx');
  });
});

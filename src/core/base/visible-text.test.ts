import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters, visibleLines, visibleText } from './visible-text.js';

describe('visibleText', () => {
  it('shows bidi overrides, zero-width and tag characters as escapes', () => {
    expect(visibleText('src/a\u202Eb.ts')).toBe('src/a\\u{202E}b.ts');
    expect(visibleText('a\u200Bb\u200Dc\u2066d\uFEFF')).toBe(
      'a\\u{200B}b\\u{200D}c\\u{2066}d\\u{FEFF}',
    );
    expect(visibleText('x\u{E0041}\u{E007F}')).toBe('x\\u{E0041}\\u{E007F}');
    expect(visibleText('soft\u00ADhyphen\u2028line')).toBe('soft\\xadhyphen\\u{2028}line');
  });

  it('puts a name with a newline on one line, so it cannot forge another line', () => {
    expect(visibleText('x\nAPPROVED: yes.ts')).toBe('x\\nAPPROVED: yes.ts');
    expect(visibleText('a\r\tb')).toBe('a\\r\\tb');
  });

  it('never lets a terminal escape through raw', () => {
    for (const attack of [
      '\x1b]52;c;ZWNobyBoaQ==\x07',
      '\x1b[2J',
      '\x1b]8;;https://evil.test\x1b\\click\x1b]8;;\x1b\\',
      '\x1b[8mhidden\x1b[0m',
      '\x9b2J',
    ]) {
      const shown = visibleText(attack);
      expect(shown).not.toMatch(/\p{Cc}/u);
      expect(visibleLines(attack)).toBe(shown);
    }
    expect(visibleText('\x1b[2J')).toBe('\\x1b[2J');
  });

  it('escapes a lone surrogate but keeps real characters and emoji', () => {
    expect(visibleText('\ud800.ts')).toBe('\\u{D800}.ts');
    expect(visibleText('naïve 日本 ✓ 😀 C:\\path')).toBe('naïve 日本 ✓ 😀 C:\\path');
    expect(hasHiddenCharacters('plain')).toBe(false);
    expect(hasHiddenCharacters('a\u202E')).toBe(true);
  });

  it('keeps lines and tabs of multi-line output, and escapes the rest', () => {
    expect(visibleLines('line 1\n\tline 2\r\n\x1b[31mred')).toBe(
      'line 1\n\tline 2\\r\n\\x1b[31mred',
    );
  });
});

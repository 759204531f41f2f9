import { describe, expect, it } from 'vitest';
import { extractBriefReferences } from './brief-references.js';

describe('brief references', () => {
  it('finds paths, symbols, commands and issue ids, once each, in order', () => {
    const task =
      'Fix #42: `parseDate` in src/dates.ts returns the wrong year. Run `npm test` after, and update `README.md` and ./docs/api/ (see ABC-7). Also `Parser.parse()`; see src/dates.ts.';
    expect(extractBriefReferences(task)).toEqual([
      { kind: 'symbol', value: 'parseDate' },
      { kind: 'command', value: 'npm test' },
      { kind: 'path', value: 'README.md' },
      { kind: 'symbol', value: 'Parser.parse' },
      { kind: 'path', value: 'src/dates.ts' },
      { kind: 'path', value: 'docs/api' },
      { kind: 'issue', value: '#42' },
      { kind: 'issue', value: 'ABC-7' },
    ]);
  });

  it('leaves out URLs, version numbers and plain words', () => {
    expect(
      extractBriefReferences('Bump to 1.2.3 as https://example.com/x.html says, please. Thanks.'),
    ).toEqual([]);
  });

  it('is deterministic', () => {
    const task = 'edit lib/a.js and lib/b.js then `make test`';
    expect(extractBriefReferences(task)).toEqual(extractBriefReferences(task));
  });
});

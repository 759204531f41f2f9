import { describe, expect, it } from 'vitest';
import { briefEchoDiff } from './brief-echo-diff.js';
import { extractBriefReferences } from './brief-references.js';

describe('brief echo diff', () => {
  it('names what the plan dropped from the brief and what it invented', () => {
    const brief = extractBriefReferences(
      'Fix `parseDate` in src/dates.ts (#12) and run `npm test`.',
    );
    const plan = {
      summary: 'Fix parseDate by rewriting src/time.ts',
      steps: ['edit src/time.ts', 'close #13'],
      files: [{ path: 'src/time.ts', change: 'modify' }],
    };
    expect(briefEchoDiff(brief, plan)).toEqual({
      dropped: [
        { kind: 'command', value: 'npm test' },
        { kind: 'path', value: 'src/dates.ts' },
        { kind: 'issue', value: '#12' },
      ],
      invented: [
        { kind: 'path', value: 'src/time.ts' },
        { kind: 'issue', value: '#13' },
      ],
    });
  });

  it('finds nothing to say about a faithful plan', () => {
    const brief = extractBriefReferences('Update README.md for #3');
    const plan = { summary: 'Update README.md (#3)', steps: ['write README.md'], files: [] };
    expect(briefEchoDiff(brief, plan)).toEqual({ dropped: [], invented: [] });
  });
});

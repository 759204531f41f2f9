import { describe, expect, it } from 'vitest';
import { contentDiff, fileChangeDiff } from './file-change-diff.js';

describe('fileChangeDiff', () => {
  it('shows an edit as the replaced and the new lines', () => {
    expect(
      fileChangeDiff('edit_file', JSON.stringify({ path: 'a.js', search: 'x\ny', replace: 'z' })),
    ).toEqual(['--- a.js', '+++ a.js', '-x', '-y', '+z']);
  });

  it('shows a whole-file write as added lines, clipped for long files', () => {
    const content = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const diff = fileChangeDiff('write_file', JSON.stringify({ path: 'b.txt', content }));
    expect(diff[0]).toBe('+++ b.txt (whole file)');
    expect(diff[1]).toBe('+line 0');
    expect(diff).toHaveLength(41);
    expect(diff.at(-1)).toBe('… 11 more lines (see correx events)');
  });

  it('gives nothing for other tools and for arguments that do not parse', () => {
    expect(fileChangeDiff('read_file', JSON.stringify({ path: 'a' }))).toEqual([]);
    expect(fileChangeDiff('write_file', '{"path": "a", "content": ')).toEqual([]);
  });

  it('diffs a change against the recorded content with a little context', () => {
    expect(contentDiff('a.txt', 'one\ntwo\nthree\nfour\n', 'one\ntwo\nTHREE\nfour\n')).toEqual([
      '--- a.txt (as the log last saw it)',
      '+++ a.txt',
      '@@ line 3 @@',
      ' one',
      ' two',
      '-three',
      '+THREE',
      ' four',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { builtinFileChange, builtinTools, describesFileChange } from './builtin-tools.js';
import { contentAfter, replacedTextChange, wholeFileChange } from './file-change.js';
import { hasCapability } from './tool-contract.js';

describe('a tool describes the file change its arguments make', () => {
  it('a whole write is its path and content; a replacement its path, search and replace', () => {
    expect(wholeFileChange({ path: 'a.txt', content: 'x' })).toEqual({
      kind: 'whole',
      path: 'a.txt',
      content: 'x',
    });
    expect(replacedTextChange({ path: 'a.txt', search: 'x', replace: 'y' })).toEqual({
      kind: 'replace',
      path: 'a.txt',
      search: 'x',
      replace: 'y',
    });
  });

  it('recorded arguments of the wrong type describe no change', () => {
    expect(wholeFileChange({ path: 'a.txt', content: 3 })).toBeUndefined();
    expect(wholeFileChange({ content: 'x' })).toBeUndefined();
    expect(replacedTextChange({ path: 'a.txt', search: 'x' })).toBeUndefined();
  });

  it('the content after a replacement inserts the text literally, once', () => {
    const change = replacedTextChange({ path: 'a', search: 'b', replace: '$&$&' })!;
    expect(contentAfter(change, 'abcb')).toBe('a$&$&cb');
    expect(contentAfter(change, undefined)).toBeUndefined();
    expect(contentAfter(wholeFileChange({ path: 'a', content: 'new' })!, undefined)).toBe('new');
  });

  it('the built-ins are looked up by name: write_file and edit_file describe, others do not', () => {
    expect(builtinFileChange('write_file', { path: 'p', content: 'c' })?.kind).toBe('whole');
    expect(builtinFileChange('edit_file', { path: 'p', search: 's', replace: 'r' })?.kind).toBe(
      'replace',
    );
    expect(builtinFileChange('exec', { command: 'echo hi > p' })).toBeUndefined();
    expect(
      builtinFileChange('mcp__server__write_file', { path: 'p', content: 'c' }),
    ).toBeUndefined();
    expect(
      builtinTools.filter((tool) => describesFileChange(tool.name)).map((t) => t.name),
    ).toEqual(['write_file', 'edit_file']);
  });

  it('every built-in that writes model-authored content describes its change', () => {
    const authored = builtinTools.filter(
      (tool) => hasCapability(tool, 'WRITES_FILES') && !hasCapability(tool, 'CONTENT_FROM_SOURCE'),
    );
    expect(authored.length).toBeGreaterThan(0);
    for (const tool of authored) expect(tool.describeChange, tool.name).toBeDefined();
  });
});

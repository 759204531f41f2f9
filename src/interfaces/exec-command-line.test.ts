import { describe, expect, it } from 'vitest';
import { execCommandLine, execFolder, shellWord } from './exec-command-line.js';

describe('an exec call as a person would type it', () => {
  it('shows argv as a shell command line, quoting only what a shell would not read literally', () => {
    expect(execCommandLine(JSON.stringify({ argv: ['node', '--test'] }))).toBe('node --test');
    expect(
      execCommandLine(
        JSON.stringify({ argv: ['git', 'commit', '-m', "it's done", 'a b.txt', ''] }),
      ),
    ).toBe(`git commit -m 'it'\\''s done' 'a b.txt' ''`);
    expect(execCommandLine(JSON.stringify({ argv: ['echo', '$HOME', 'a;b', 'x*'] }))).toBe(
      `echo '$HOME' 'a;b' 'x*'`,
    );
  });

  it('keeps a command line as written, and says nothing for arguments without one', () => {
    expect(execCommandLine(JSON.stringify({ command: 'npm test -- --watch=false' }))).toBe(
      'npm test -- --watch=false',
    );
    expect(execCommandLine(JSON.stringify({ argv: [] }))).toBeUndefined();
    expect(execCommandLine(JSON.stringify({ argv: ['ls', 3] }))).toBeUndefined();
    expect(execCommandLine('not json')).toBeUndefined();
    expect(execCommandLine('"node"')).toBeUndefined();
  });

  it('quotes a word so a POSIX shell reads it back unchanged', () => {
    expect(shellWord('src/a.txt')).toBe('src/a.txt');
    expect(shellWord('--grep=median')).toBe('--grep=median');
    expect(shellWord("'")).toBe(`''\\'''`);
  });

  it('runs in its resolved cwd, else in the workspace', () => {
    const cwd = { param: 'cwd', raw: 'pkg', resolved: '/w/pkg', realPath: '/real/w/pkg' };
    expect(execFolder([cwd], '/w')).toBe('/real/w/pkg');
    expect(execFolder([{ ...cwd, realPath: null }], '/w')).toBe('/w/pkg');
    expect(execFolder([{ ...cwd, param: 'path' }], '/w')).toBe('/w');
    expect(execFolder([], null)).toBeUndefined();
  });
});

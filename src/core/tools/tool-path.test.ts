import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinTools, execTool } from './builtin-tools.js';
import { toolArgsJsonSchema } from './tool-contract.js';
import {
  InvalidToolPathRootsError,
  isPathInside,
  normalizeAbsolute,
  resolveToolPath,
} from './tool-path.js';

const roots = { workspaceRoot: '/work/ws', homeDirectory: '/home/dev' };
const resolve = (raw: unknown) => {
  const result = resolveToolPath(raw, roots);
  return result.ok ? result.path.absolute : `!${result.rejection.code}`;
};

describe('resolveToolPath', () => {
  it.each([
    ['src/a.ts', '/work/ws/src/a.ts'],
    ['./src/../src/./a.ts', '/work/ws/src/a.ts'],
    ['~', '/home/dev'],
    ['~/.bashrc', '/home/dev/.bashrc'],
    ['a/~/b', '/work/ws/a/~/b'],
    ['../../../../etc/passwd', '/etc/passwd'],
    ['/etc//passwd/', '/etc/passwd'],
    ['src\\..\\x', '/work/ws/src\\..\\x'],
  ])('%j → %j', (raw, expected) => {
    expect(resolve(raw)).toBe(expected);
  });

  it.each([
    ['', '!empty'],
    ['a\u0000b', '!nul_byte'],
    ['~root/x', '!other_user_home'],
    [42, '!not_a_string'],
    ['x'.repeat(4097), '!too_long'],
    [`a/${'b'.repeat(256)}`, '!segment_too_long'],
    [`a/${'é'.repeat(128)}`, '!segment_too_long'],
  ])('rejects %j', (raw, expected) => {
    expect(resolve(raw)).toBe(expected);
  });

  it('refuses roots that are not absolute normalized paths', () => {
    expect(() => resolveToolPath('a', { workspaceRoot: 'ws', homeDirectory: '/h' })).toThrow(
      InvalidToolPathRootsError,
    );
    expect(() => resolveToolPath('a', { workspaceRoot: '/ws/../x', homeDirectory: '/h' })).toThrow(
      InvalidToolPathRootsError,
    );
  });

  it('always yields a normalized absolute path with no dot segments (property)', () => {
    const segment = fc.constantFrom('.', '..', 'a', 'b', '~', '', 'ws');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), fc.boolean(), (segments, absolute) => {
        const raw = (absolute ? '/' : '') + segments.join('/');
        const result = resolveToolPath(raw, roots);
        if (!result.ok)
          return raw === '' || (raw.startsWith('~') && !raw.startsWith('~/') && raw !== '~');
        const path = result.path.absolute;
        return (
          path.startsWith('/') &&
          normalizeAbsolute(path) === path &&
          !path.split('/').some((part) => part === '.' || part === '..')
        );
      }),
    );
  });

  it('containment compares whole segments, not string prefixes', () => {
    expect(isPathInside('/work/ws', '/work/ws')).toBe(true);
    expect(isPathInside('/work/ws/a', '/work/ws')).toBe(true);
    expect(isPathInside('/work/ws-evil/a', '/work/ws')).toBe(false);
    expect(isPathInside('/work/wsx', '/work/ws')).toBe(false);
  });
});

describe('tool contracts', () => {
  it('export JSON Schema for models, strict about unknown arguments', () => {
    const schema = toolArgsJsonSchema(execTool);
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(schema.properties as object)).toEqual([
      'command',
      'argv',
      'cwd',
      'timeoutMs',
    ]);
    for (const tool of builtinTools) {
      expect(toolArgsJsonSchema(tool), tool.name).toMatchObject({
        type: 'object',
        additionalProperties: false,
      });
    }
  });

  it('declare a role for every path-like argument', () => {
    const names = builtinTools.map(
      (tool) =>
        `${tool.name}:${Object.entries(tool.paramRoles)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')}`,
    );
    expect(names).toEqual([
      'read_file:path=PATH',
      'write_file:path=PATH',
      'edit_file:path=PATH',
      'list_dir:path=PATH',
      'glob:path=PATH',
      'grep:path=PATH',
      'exec:command=COMMAND,argv=COMMAND,cwd=PATH',
      'http_fetch:url=URL',
      'copy_file:source=SOURCE_PATH,destination=PATH',
      'move_file:source=PATH,destination=PATH',
    ]);
  });
});

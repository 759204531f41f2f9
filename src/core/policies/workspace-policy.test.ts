import { describe, expect, it } from 'vitest';
import { mergePolicy } from './merge-policy.js';
import { matchGlob } from './path-glob.js';
import {
  InvalidPolicyError,
  parsePolicyOverlay,
  parseWorkspacePolicy,
} from './workspace-policy.js';

describe('parseWorkspacePolicy', () => {
  it('fills safe defaults: no egress, the never-writable list, a short program list', () => {
    const policy = parseWorkspacePolicy({});
    expect(policy.egressAllowlist).toEqual([]);
    expect(policy.neverWritable).toEqual(
      expect.arrayContaining([
        '.git/hooks/**',
        '.git/config',
        'harness.yaml',
        '~/.bashrc',
        '.correx/**',
      ]),
    );
    expect(policy.allowedExecutables).not.toContain('curl');
    expect(policy.writeScope).toEqual([['**']]);
  });

  it('rejects unknown fields and malformed hosts with a named error', () => {
    expect(() => parseWorkspacePolicy({ allowEverything: true })).toThrow(InvalidPolicyError);
    for (const host of [
      'Example.com',
      'evil.com\u0000.ok.com',
      'ok.com:443',
      '*',
      'a..b',
      'exämple.com',
    ]) {
      expect(() => parseWorkspacePolicy({ egressAllowlist: [host] }), host).toThrow(
        /egressAllowlist/,
      );
    }
  });
});

describe('mergePolicy: a workspace file may narrow, never widen', () => {
  const user = parseWorkspacePolicy({
    egressAllowlist: ['registry.npmjs.org'],
    allowedExecutables: ['git', 'npm'],
    tierOverrides: { exec: 'T3' },
    writeScope: [['src/**', 'test/**']],
  });

  it('drops and reports every widening', () => {
    const { policy, refused } = mergePolicy(
      user,
      parsePolicyOverlay({
        egressAllowlist: ['registry.npmjs.org', 'evil.net'],
        allowedExecutables: ['git', 'curl'],
        tierOverrides: { exec: 'T0' },
        maxCommands: 200,
        writeScope: ['src/**', '**'],
      }),
    );
    expect(policy.egressAllowlist).toEqual(['registry.npmjs.org']);
    expect(policy.allowedExecutables).toEqual(['git']);
    expect(policy.tierOverrides.exec).toBe('T3');
    expect(policy.maxCommands).toBe(user.maxCommands);
    expect(policy.writeScope).toEqual([['src/**', 'test/**'], ['src/**']]);
    expect(refused.map((r) => `${r.field}:${r.value}`).sort()).toEqual([
      'allowedExecutables:curl',
      'egressAllowlist:evil.net',
      'maxCommands:200',
      'tierOverrides:exec=T0',
      'writeScope:**',
    ]);
    expect(refused).toHaveLength(5);
  });

  it('applies every narrowing', () => {
    const { policy, refused } = mergePolicy(
      user,
      parsePolicyOverlay({
        egressAllowlist: [],
        neverWritable: ['src/generated/**'],
        tierOverrides: { read_file: 'T2' },
        writeScope: ['src/lib/**'],
        maxCommandLength: 100,
      }),
    );
    expect(refused).toEqual([]);
    expect(policy.egressAllowlist).toEqual([]);
    expect(policy.neverWritable).toContain('src/generated/**');
    expect(policy.neverWritable).toContain('.git/hooks/**');
    expect(policy.tierOverrides).toEqual({ exec: 'T3', read_file: 'T2' });
    expect(policy.writeScope.at(-1)).toEqual(['src/lib/**']);
    expect(policy.maxCommandLength).toBe(100);
  });

  it('a write scope entirely refused narrows to nothing rather than being ignored', () => {
    const { policy } = mergePolicy(user, parsePolicyOverlay({ writeScope: ['docs/**'] }));
    expect(policy.writeScope.at(-1)!.some((glob) => matchGlob(glob, 'docs/a.md'))).toBe(false);
    expect(policy.writeScope.at(-1)!.some((glob) => matchGlob(glob, 'src/a.ts'))).toBe(false);
  });

  it('records a write scope refused whole as an empty list the recorded policy parses again', () => {
    const { policy } = mergePolicy(user, parsePolicyOverlay({ writeScope: ['**'] }));
    expect(policy.writeScope.at(-1)).toEqual([]);
    expect(parseWorkspacePolicy(JSON.parse(JSON.stringify(policy)))).toEqual(policy);
  });

  it('still reads the NUL sentinel older sessions recorded for "nothing writable", and only as a whole list', () => {
    const legacy = [['src/**'], ['\0nothing']];
    expect(parseWorkspacePolicy({ writeScope: legacy }).writeScope).toEqual(legacy);
    expect(() => parseWorkspacePolicy({ writeScope: [['src/**', '\0nothing']] })).toThrow(
      /a glob may not contain NUL/,
    );
    expect(() => parseWorkspacePolicy({ writeScope: [['a\0b']] })).toThrow(/contain NUL/);
  });
});

describe('matchGlob', () => {
  it.each([
    ['**', 'a/b/c', true],
    ['src/**', 'src', true],
    ['src/**', 'src/a/b.ts', true],
    ['src/**', 'srcx/a', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false],
    ['**/.git/hooks/**', 'vendor/x/.git/hooks/pre-commit', true],
    ['.git/config', '.git/config.bak', false],
    ['a?c', 'abc', true],
    ['a?c', 'ac', false],
  ])('%s vs %s → %s', (pattern, path, expected) => {
    expect(matchGlob(pattern, path)).toBe(expected);
  });

  it('folds case and Unicode normalization when asked', () => {
    expect(matchGlob('.git/hooks/**', '.GIT/Hooks/x')).toBe(false);
    expect(matchGlob('.git/hooks/**', '.GIT/Hooks/x', { foldCase: true })).toBe(true);
    expect(matchGlob('caf\u00e9/**', 'cafe\u0301/x', { foldCase: true })).toBe(true);
  });
});

describe('sandbox knobs', () => {
  it('leaves unsandboxedExecTier unset by default (read as T3) and accepts only tiers', () => {
    expect(parseWorkspacePolicy({}).unsandboxedExecTier).toBeUndefined();
    expect(parseWorkspacePolicy({ unsandboxedExecTier: 'T2' }).unsandboxedExecTier).toBe('T2');
    expect(() => parseWorkspacePolicy({ unsandboxedExecTier: 'T9' })).toThrow(
      /unsandboxedExecTier/,
    );
    expect(
      parseWorkspacePolicy({ sandboxReadablePaths: ['~/.config/gh/hosts.yml'] })
        .sandboxReadablePaths,
    ).toEqual(['~/.config/gh/hosts.yml']);
  });
});

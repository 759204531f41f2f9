import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import {
  buildBubblewrapProfile,
  protectedWorkspacePaths,
  SANDBOX_PROXY_SOCKET,
} from '../../src/infrastructure/sandbox/bubblewrap-profile.js';
import { trustedSearchPath } from '../../src/infrastructure/sandbox/trusted-search-path.js';
import { sandboxFixture } from './sandbox-support.js';

describe('protectedWorkspacePaths', () => {
  it('turns the literal never-writable entries into workspace paths, and skips the rest', () => {
    expect(
      protectedWorkspacePaths('/w', [
        ...DEFAULT_NEVER_WRITABLE,
        '/w/.correx-store/**',
        '/elsewhere/**',
      ]),
    ).toEqual([
      '/w/.correx',
      '/w/harness.yaml',
      '/w/.git/hooks',
      '/w/.git/config',
      '/w/.gitmodules',
      '/w/.correx-store',
    ]);
  });
});

describe('trustedSearchPath', () => {
  it('keeps absolute directories outside the workspace, once each', () => {
    expect(trustedSearchPath('/w/bin:.:bin::/usr/bin:/w:/usr/bin:/bin', '/w')).toBe(
      '/usr/bin:/bin',
    );
  });
});

describe('buildBubblewrapProfile', () => {
  const fixture = sandboxFixture('correx-profile-');
  writeFileSync(join(fixture.workspace, '.git/config'), '');
  mkdirSync(join(fixture.home, 'bin'), { recursive: true });
  mkdirSync(join(fixture.home, '.nvm/versions/node/v20/bin'), { recursive: true });
  const build = (proxySocket: string | null) =>
    buildBubblewrapProfile({
      bwrapPath: '/usr/bin/bwrap',
      userNamespace: true,
      workspaceRoot: fixture.workspace,
      cwd: fixture.workspace,
      homeDirectory: fixture.home,
      neverWritable: [...DEFAULT_NEVER_WRITABLE],
      hiddenPaths: [],
      readablePaths: [],
      searchPath: `${fixture.home}/bin:${fixture.home}/.nvm/versions/node/v20/bin:/usr/bin`,
      proxySocket,
      allowedHosts: ['registry.npmjs.org'],
    });

  it('hides the home before binding the workspace, and binds protected paths read-only after it', () => {
    const { args, profile } = build(null);
    const at = (...pair: string[]) =>
      args.findIndex((_, index) => pair.every((value, offset) => args[index + offset] === value));
    // Deny-by-default: no bind of the host's root, only its system folders, and a read-only root.
    expect(at('--ro-bind', '/', '/')).toBe(-1);
    expect(at('--ro-bind', '/usr', '/usr')).toBeGreaterThan(-1);
    expect(at('--remount-ro', '/')).toBeGreaterThan(
      at('--bind', fixture.workspace, fixture.workspace),
    );
    expect(at('--tmpfs', fixture.home)).toBeLessThan(
      at('--bind', fixture.workspace, fixture.workspace),
    );
    expect(at('--bind', fixture.workspace, fixture.workspace)).toBeLessThan(
      at('--ro-bind', join(fixture.workspace, '.git/hooks'), join(fixture.workspace, '.git/hooks')),
    );
    for (const flag of ['--unshare-net', '--unshare-pid', '--die-with-parent', '--unshare-user'])
      expect(args).toContain(flag);
    expect(args.slice(-3)).toEqual(['--chdir', fixture.workspace, '--']);
    expect(profile).toMatchObject({ kind: 'bubblewrap', network: 'none', allowedHosts: [] });
  });

  it('keeps a PATH prefix under the home readable, but never the whole home for ~/bin', () => {
    const { profile } = build(null);
    expect(profile.granted).toContain(join(fixture.home, '.nvm/versions/node/v20'));
    expect(profile.granted).toContain(join(fixture.home, 'bin'));
    expect(profile.granted).not.toContain(fixture.home);
  });

  it('binds the proxy socket into the private /tmp when egress goes through the proxy', () => {
    const { args, profile } = build('/tmp/correx-egress-x/proxy.sock');
    expect(args.join(' ')).toContain(
      `--bind /tmp/correx-egress-x/proxy.sock ${SANDBOX_PROXY_SOCKET}`,
    );
    expect(profile).toMatchObject({ network: 'proxy', allowedHosts: ['registry.npmjs.org'] });
  });
});

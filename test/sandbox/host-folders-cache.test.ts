import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NEVER_READABLE } from '../../src/core/policies/workspace-policy.js';
import type { SandboxSettings } from '../../src/infrastructure/sandbox/confined-process.js';
import {
  buildHostReadView,
  hostFolderScanCounts,
  SYSTEM_READABLE_FOLDERS,
  type HostReadView,
} from '../../src/infrastructure/sandbox/read-view.js';
import { resolveWatched } from '../../src/infrastructure/sandbox/watched-folders.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { availability, describeSandboxed, execIn } from './sandbox-support.js';

/**
 * The host part of the read view (system folders, toolchains on the trusted PATH) is resolved
 * once and reused while the folders it read are unchanged. Each test first waits until a build
 * was served from that cache, then changes the host, and proves the next build sees the change.
 */
const outside = outsideTmpFolder();
const base = realpathSync(mkdtempSync(join(outside, 'host-cache-')));

function fixture(name: string) {
  const root = join(base, name);
  const workspace = join(root, 'ws');
  const home = join(root, 'home');
  for (const dir of [workspace, home]) mkdirSync(dir, { recursive: true });
  return { root, workspace, home };
}

/** Builds until one build reused the cached scan (the fixture's folders must age first). */
async function untilReused(build: () => HostReadView): Promise<void> {
  await expect
    .poll(
      () => {
        const before = hostFolderScanCounts().reuses;
        build();
        return hostFolderScanCounts().reuses > before;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
}

function bindTargets(view: HostReadView): string[] {
  const args = [...view.systemArgs, ...view.grantArgs];
  return args.filter((_, index) => index >= 2 && args[index - 2] === '--ro-bind');
}

describe('resolveWatched', () => {
  const root = join(base, 'links');
  mkdirSync(join(root, 'a/real/bin'), { recursive: true });
  mkdirSync(join(root, 'b'), { recursive: true });
  mkdirSync(join(root, 'c'), { recursive: true });
  // c/hop -> ../b/next -> ../a/real (a chain of links through three folders)
  symlinkSync('../a/real', join(root, 'b/next'));
  symlinkSync('../b/next', join(root, 'c/hop'));
  symlinkSync(join(root, 'c/hop/bin'), join(root, 'abs'));
  writeFileSync(join(root, 'a/file'), '');
  symlinkSync('loop2', join(root, 'loop1'));
  symlinkSync('loop1', join(root, 'loop2'));

  it('answers as realpath(3) does, links, `..` (taken physically) and absolute targets included', () => {
    for (const path of [
      root,
      join(root, 'c/hop'),
      join(root, 'c/hop/bin'),
      `${join(root, 'c/hop')}/../real/bin`,
      join(root, 'abs'),
      `${root}/./a//real/`,
      '/',
    ])
      expect(
        resolveWatched(path, () => {}),
        path,
      ).toBe(realpathSync.native(path));
  });

  it('answers null where realpath fails: missing, a file used as a folder, a link loop', () => {
    for (const path of [
      join(root, 'missing'),
      join(root, 'a/file/x'),
      join(root, 'loop1'),
      'relative/path',
    ])
      expect(resolveWatched(path, () => {})).toBeNull();
  });

  it('watches every folder a link on the way lies in', () => {
    const watched = new Set<string>();
    resolveWatched(join(root, 'c/hop/bin'), (folder) => watched.add(folder));
    for (const folder of ['/', root, join(root, 'c'), join(root, 'b'), join(root, 'a/real')])
      expect(watched, folder).toContain(folder);
  });
});

describe('the cached host part of the read view', () => {
  it('sees a new folder on the trusted PATH, and a credentials file created in a toolchain', async () => {
    const { root, workspace, home } = fixture('path');
    mkdirSync(join(root, 'old/tool/bin'), { recursive: true });
    const searchPath = `${join(root, 'old/tool/bin')}:${join(root, 'new/tool/bin')}:/usr/bin`;
    const build = () =>
      buildHostReadView({
        workspaceRoot: workspace,
        homeDirectory: home,
        searchPath,
        readablePaths: [],
        neverReadable: [...DEFAULT_NEVER_READABLE],
        systemFolders: ['/usr'],
      });
    await untilReused(build);
    expect(build().granted).toEqual([join(root, 'old/tool')]);

    mkdirSync(join(root, 'new/tool/bin'), { recursive: true });
    expect(build().granted).toEqual([join(root, 'old/tool'), join(root, 'new/tool')]);

    await untilReused(build);
    writeFileSync(join(root, 'old/tool/.npmrc'), '//registry/:_authToken=secret\n');
    const view = build();
    expect(view.hidden).toContain(join(root, 'old/tool/.npmrc'));
    expect(view.grantArgs.join(' ')).toContain(
      `--ro-bind /dev/null ${join(root, 'old/tool/.npmrc')}`,
    );
  });

  it('follows a toolchain folder swapped for a link, and a folder above it swapped too', async () => {
    const { root, workspace, home } = fixture('swap');
    mkdirSync(join(root, 'opt/tool/bin'), { recursive: true });
    mkdirSync(join(root, 'elsewhere/tool/bin'), { recursive: true });
    writeFileSync(join(root, 'elsewhere/tool/credentials'), 'secret\n');
    mkdirSync(join(root, 'third/opt/tool/bin'), { recursive: true });
    writeFileSync(join(root, 'third/opt/tool/.netrc'), 'secret\n');
    const build = () =>
      buildHostReadView({
        workspaceRoot: workspace,
        homeDirectory: home,
        searchPath: join(root, 'opt/tool/bin'),
        readablePaths: [],
        neverReadable: [],
        systemFolders: ['/usr'],
      });
    await untilReused(build);
    expect(build().granted).toEqual([join(root, 'opt/tool')]);

    // The toolchain folder becomes a link: its target is bound, under both names, and the
    // target's credentials file is emptied.
    renameSync(join(root, 'opt/tool'), join(root, 'opt/tool.old'));
    symlinkSync(join(root, 'elsewhere/tool'), join(root, 'opt/tool'));
    let view = build();
    expect(view.granted).toEqual([join(root, 'elsewhere/tool'), join(root, 'opt/tool')]);
    expect(view.hidden).toEqual([join(root, 'opt/tool/credentials')]);

    // A folder above the PATH entry becomes a link to another tree.
    await untilReused(build);
    renameSync(join(root, 'opt'), join(root, 'opt.old'));
    symlinkSync(join(root, 'third/opt'), join(root, 'opt'));
    view = build();
    expect(view.granted).toEqual([join(root, 'third/opt/tool'), join(root, 'opt/tool')]);
    expect(view.hidden).toEqual([join(root, 'opt/tool/.netrc')]);
  });

  it('stops binding a system folder swapped for a link (which would show its target)', async () => {
    const { root, workspace, home } = fixture('system');
    const system = join(root, 'system');
    mkdirSync(system);
    mkdirSync(join(root, 'private'));
    const build = () =>
      buildHostReadView({
        workspaceRoot: workspace,
        homeDirectory: home,
        searchPath: '/usr/bin',
        readablePaths: [],
        neverReadable: [],
        systemFolders: ['/usr', system],
      });
    await untilReused(build);
    expect(bindTargets(build())).toContain(system);
    rmSync(system, { recursive: true });
    symlinkSync(join(root, 'private'), system);
    const view = build();
    expect(bindTargets(view)).not.toContain(system);
    expect(view.systemArgs.join(' ')).not.toContain(system);
  });
});

describeSandboxed('the cached host view under the real bubblewrap', () => {
  const CANARY = 'CANARY-HOST-CACHE-';
  const { root, workspace, home } = fixture('bwrap');
  const system = join(root, 'system');
  const secret = join(root, 'private');
  const tool = join(root, 'tool');
  for (const dir of [system, secret, join(tool, 'bin')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(system, 'shown.txt'), 'shown\n');
  writeFileSync(join(secret, 'canary.txt'), `${CANARY}private\n`);
  const settings: SandboxSettings = {
    availability,
    neverReadable: [...DEFAULT_NEVER_READABLE],
    systemFolders: [...SYSTEM_READABLE_FOLDERS, system],
  };
  const searchPath = `${join(tool, 'bin')}:/usr/bin:/bin`;
  const run = (command: string) =>
    execIn({ workspace, home }, { command }, { sandbox: settings, searchPath });
  const build = () =>
    buildHostReadView({
      workspaceRoot: workspace,
      homeDirectory: home,
      searchPath,
      readablePaths: [],
      neverReadable: [...DEFAULT_NEVER_READABLE],
      systemFolders: settings.systemFolders!,
    });

  it('shows no canary byte through a system folder swapped for a link, nor a new toolchain secret', async () => {
    await untilReused(build);
    const first = await run(`cat '${join(system, 'shown.txt')}'; ls '${tool}'`);
    expect(first.output).toContain('shown');

    rmSync(system, { recursive: true });
    symlinkSync(secret, system);
    writeFileSync(join(tool, 'credentials'), `${CANARY}toolchain\n`);
    const second = await run(
      `cat '${join(system, 'canary.txt')}' '${join(tool, 'credentials')}'; echo end`,
    );
    expect(second.output).toContain('end');
    expect(second.output).not.toContain(CANARY);
  });
});

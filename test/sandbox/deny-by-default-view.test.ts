import { outsideTmpFolder } from '../support/outside-tmp.js';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  DEFAULT_NEVER_READABLE,
  DEFAULT_NEVER_WRITABLE,
} from '../../src/core/policies/workspace-policy.js';
import { SYSTEM_READABLE_FOLDERS } from '../../src/infrastructure/sandbox/read-view.js';
import { buildBubblewrapProfile } from '../../src/infrastructure/sandbox/bubblewrap-profile.js';
import type { SandboxSettings } from '../../src/infrastructure/sandbox/confined-process.js';
import { availability, describeSandboxed, execIn } from './sandbox-support.js';

/**
 * Issue #41: the sandbox's read view is deny-by-default. Canaries lie outside the workspace in
 * places a command could reach before (a folder beside the workspace, a sibling repository's
 * .env, an /etc-like folder with shadow, ssl/private and a .pem), none under /tmp or the home,
 * which were hidden already. Every way of reading them returns no canary byte.
 */
const CANARY = 'CANARY-41-';
// Not under /tmp (always private inside the sandbox): a folder of the checkout, ignored by git.
const outside = outsideTmpFolder();
const base = mkdtempSync(join(outside, 'view-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const workspace = join(base, 'ws');
const home = join(base, 'home');
const beside = join(base, 'beside');
const sibling = join(base, 'other-repo');
const etc = join(base, 'etc');
for (const dir of [workspace, home, beside, sibling, join(etc, 'ssl/private'), join(etc, 'app')])
  mkdirSync(dir, { recursive: true });
const canaries = {
  beside: join(beside, 'notes.txt'),
  siblingEnv: join(sibling, '.env'),
  shadow: join(etc, 'shadow'),
  privateKey: join(etc, 'ssl/private/server.key'),
  pem: join(etc, 'app/client.pem'),
};
for (const [name, path] of Object.entries(canaries)) writeFileSync(path, `${CANARY}${name}\n`);
writeFileSync(join(etc, 'app/settings.conf'), 'visible=yes\n');

const settings: SandboxSettings = {
  availability,
  neverWritable: [...DEFAULT_NEVER_WRITABLE],
  neverReadable: [...DEFAULT_NEVER_READABLE],
  // The test's /etc-like folder is shown as a system folder, so its secrets must be emptied.
  systemFolders: [...SYSTEM_READABLE_FOLDERS, etc],
};
const run = (command: string) =>
  execIn({ workspace, home }, { command }, { sandbox: settings, searchPath: '/usr/bin:/bin' });

describeSandboxed('the deny-by-default read view (real bubblewrap)', () => {
  const paths = Object.values(canaries);
  const readers: Record<string, string> = {
    cat: paths.map((path) => `cat '${path}'`).join('; '),
    'find -exec cat': `find '${base}' -type f -exec cat {} \\;`,
    'python3 open': `python3 -c "import sys\nfor p in sys.argv[1:]:\n  try: print(open(p).read())\n  except OSError as e: print(e)" ${paths.map((p) => `'${p}'`).join(' ')}`,
    'node readFileSync': `node -e "for (const p of process.argv.slice(1)) { try { process.stdout.write(require('fs').readFileSync(p)) } catch (e) { console.log(e.code) } }" ${paths.map((p) => `'${p}'`).join(' ')}`,
    'cp into the workspace': `${paths.map((path, i) => `cp '${path}' ./copy-${i}`).join('; ')}; cat ./copy-*`,
  };

  for (const [name, command] of Object.entries(readers)) {
    it(`returns no canary byte: ${name}`, async () => {
      const receipt = await run(command);
      expect(receipt.sandbox?.kind).toBe('bubblewrap');
      expect(receipt.output).not.toContain(CANARY);
      for (let i = 0; i < paths.length; i++) {
        const copy = join(workspace, `copy-${i}`);
        if (existsSync(copy)) expect(readFileSync(copy, 'utf8')).not.toContain(CANARY);
      }
    });
  }

  it('shows the system folders, with their ordinary files readable and their secrets empty', async () => {
    const receipt = await run(
      `cat '${join(etc, 'app/settings.conf')}'; wc -c < '${canaries.shadow}'; ls '${join(etc, 'ssl/private')}' | wc -l; test -e '${beside}' || echo beside-absent; test -e /srv/x; ls / `,
    );
    expect(receipt.output).toContain('visible=yes');
    expect(receipt.output).not.toContain(CANARY); // shadow is there, empty or unopenable
    expect(receipt.output).toContain('beside-absent');
    const rootListing = receipt.output.split('\n');
    // The top folder that leads to the fixtures exists (only as that path, checked below).
    const pathToFixtures = outside.split('/')[1];
    for (const absent of ['srv', 'opt', 'root', 'home', 'mnt', 'media', 'boot'])
      if (absent !== pathToFixtures) expect(rootListing).not.toContain(absent);
    // The folders above the workspace exist only as the path to it: nothing else of the checkout.
    const above = await run(`ls -A '${outside}'`);
    expect(above.output.trim()).toBe(basename(base));
    expect(receipt.sandbox?.hidden).toEqual(
      expect.arrayContaining([canaries.shadow, join(etc, 'ssl/private'), canaries.pem]),
    );
  });

  it('empties a secret created in /etc between two calls (the cached walk notices)', async () => {
    const first = await run(`ls '${etc}'`);
    expect(first.output).toContain('shadow');
    writeFileSync(join(etc, 'gshadow'), `${CANARY}late\n`);
    const second = await run(`cat '${join(etc, 'gshadow')}'; echo end`);
    expect(second.output).toContain('end');
    expect(second.output).not.toContain(CANARY);
  });

  it('lets git work in a worktree whose repository lies outside the workspace', async () => {
    const repo = join(base, 'main-repo');
    const tree = join(base, 'tree');
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd,
        stdio: 'ignore',
      });
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-qm', 'a');
    git(repo, 'worktree', 'add', '-q', tree);
    writeFileSync(join(tree, 'a.txt'), 'changed\n');
    const receipt = await execIn(
      { workspace: tree, home },
      { command: 'git status --short && git log --oneline | wc -l' },
      { sandbox: settings, searchPath: '/usr/bin:/bin' },
    );
    expect(receipt.output).toContain(' M a.txt');
    expect(receipt.outcome, receipt.output).toBe('succeeded');
  });

  it("empties the host's own /etc/shadow", async () => {
    if (!existsSync('/etc/shadow')) return;
    let host: string;
    try {
      host = readFileSync('/etc/shadow', 'utf8');
    } catch {
      return; // not readable by this user on the host either
    }
    expect(host.length).toBeGreaterThan(0);
    const receipt = await run('cat /etc/shadow; grep -c root /etc/shadow; echo end');
    expect(receipt.output).toContain('end');
    expect(receipt.output).not.toMatch(/^root:/m);
    expect(receipt.output).not.toMatch(/^[1-9]/m);
  });

  it('binds an etc folder once, from a prepared view with its secrets empty, not a mount per secret', () => {
    const profile = buildBubblewrapProfile({
      bwrapPath: availability.kind === 'bubblewrap' ? availability.bwrapPath : 'bwrap',
      userNamespace: true,
      workspaceRoot: workspace,
      cwd: workspace,
      homeDirectory: home,
      neverWritable: [],
      neverReadable: [...DEFAULT_NEVER_READABLE],
      hiddenPaths: [],
      readablePaths: [],
      searchPath: '/usr/bin:/bin',
      systemFolders: [etc],
      proxySocket: null,
      allowedHosts: [],
    });
    const targets = profile.args.filter(
      (arg, i) =>
        i > 0 &&
        profile.args[i - 2] !== undefined &&
        ['--ro-bind', '--tmpfs'].includes(profile.args[i - 2]!),
    );
    expect(targets.filter((target) => target === etc || target.startsWith(`${etc}/`))).toEqual([
      etc,
    ]);
    const source = profile.args[profile.args.indexOf(etc) - 1]!;
    expect(source).not.toBe(etc);
    expect(readFileSync(join(source, 'app/settings.conf'), 'utf8')).toBe('visible=yes\n');
    expect(readFileSync(join(source, 'shadow'), 'utf8')).toBe('');
    expect(readFileSync(join(source, 'app/client.pem'), 'utf8')).toBe('');
    expect(readdirSync(join(source, 'ssl/private'))).toEqual([]);
    expect(profile.profile.hidden).toEqual(
      expect.arrayContaining([canaries.shadow, canaries.pem, join(etc, 'ssl/private')]),
    );
  });

  it('shows a file created or replaced at the top of /etc between two calls (the view is rebuilt)', async () => {
    writeFileSync(join(etc, 'top.conf'), 'visible=first\n');
    expect((await run(`cat '${join(etc, 'top.conf')}'`)).output).toContain('visible=first');
    writeFileSync(join(etc, 'new.conf'), 'new=yes\n');
    writeFileSync(join(etc, 'top.next'), 'visible=again\n');
    renameSync(join(etc, 'top.next'), join(etc, 'top.conf'));
    const receipt = await run(`cat '${join(etc, 'new.conf')}' '${join(etc, 'top.conf')}'`);
    expect(receipt.output).toContain('new=yes');
    expect(receipt.output).toContain('visible=again');
  });

  it('still runs programs, toolchains and writes the workspace', async () => {
    const receipt = await run(
      'python3 -c "print(6*7)" && node -e "console.log(1+1)" && echo ok > made.txt && cat made.txt && touch /made 2>/dev/null || echo root-read-only',
    );
    expect(receipt.output).toContain('42');
    expect(receipt.output).toContain('2');
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('ok\n');
    expect(receipt.output).toContain('root-read-only');
  });
});

import { randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import type { SandboxSettings } from '../../src/infrastructure/sandbox/confined-process.js';
import { createProcessStaticAnalysisRunner } from '../../src/infrastructure/kernel/process-static-analysis-runner.js';
import {
  availability,
  describeSandboxed,
  execIn,
  liveProcessesMatching,
  sandboxFixture,
} from './sandbox-support.js';

const fixture = sandboxFixture('correx-sandbox-');
const settings = (extra: Partial<SandboxSettings> = {}): SandboxSettings => ({
  availability,
  neverWritable: [...DEFAULT_NEVER_WRITABLE],
  ...extra,
});

describeSandboxed('exec under bubblewrap: the filesystem', () => {
  writeFileSync(join(fixture.workspace, '.git/config'), '[core]\n');
  writeFileSync(join(fixture.home, '.ssh/id_ed25519'), 'PLANTED-SSH-SECRET\n');
  writeFileSync(join(fixture.home, '.aws/credentials'), 'PLANTED-AWS-SECRET\n');
  mkdirSync(join(fixture.home, '.config/tool'), { recursive: true });
  writeFileSync(join(fixture.home, '.config/tool/granted.txt'), 'granted by policy\n');

  it('writes the workspace, and nothing outside it', async () => {
    const receipt = await execIn(
      fixture,
      {
        command: `echo inside > made.txt && echo escaped > ${fixture.outside}/x.txt`,
      },
      { sandbox: settings() },
    );
    expect(receipt.outcome).toBe('failed');
    // The fixture's `outside` lies in the host's /tmp, which the sandbox replaces with its own.
    expect(receipt.output).toContain('Directory nonexistent');
    expect(readFileSync(join(fixture.workspace, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(existsSync(join(fixture.outside, 'x.txt'))).toBe(false);
    const etc = await execIn(
      fixture,
      { argv: ['touch', '/etc/correx-was-here'] },
      { sandbox: settings() },
    );
    expect(etc.outcome).toBe('failed');
    expect(etc.output).toContain('Read-only file system');
    expect(existsSync('/etc/correx-was-here')).toBe(false);
  });

  it('cannot write .git/hooks/pre-commit or .git/config', async () => {
    const hook = await execIn(
      fixture,
      { command: 'printf "#!/bin/sh\\nevil\\n" > .git/hooks/pre-commit' },
      { sandbox: settings() },
    );
    expect(hook.outcome).toBe('failed');
    expect(existsSync(join(fixture.workspace, '.git/hooks/pre-commit'))).toBe(false);
    const config = await execIn(
      fixture,
      { command: 'echo "[core] fsmonitor = evil" >> .git/config' },
      { sandbox: settings() },
    );
    expect(config.outcome).toBe('failed');
    expect(readFileSync(join(fixture.workspace, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(hook.sandbox).toMatchObject({
      kind: 'bubblewrap',
      network: 'none',
      writable: [fixture.workspace],
      readOnly: expect.arrayContaining([
        join(fixture.workspace, '.git/hooks'),
        join(fixture.workspace, '.git/config'),
      ]) as unknown,
    });
  });

  it('sees an empty private home: planted secrets are unreadable unless policy grants a path', async () => {
    const receipt = await execIn(
      fixture,
      {
        command: `cat ~/.ssh/id_ed25519 ~/.aws/credentials ${fixture.home}/.ssh/id_ed25519; ls -A ~`,
      },
      { sandbox: settings() },
    );
    expect(receipt.output).not.toContain('PLANTED');
    expect(receipt.output).toContain('No such file or directory');
    expect(receipt.sandbox?.hidden).toContain(fixture.home);

    const granted = await execIn(
      fixture,
      { command: 'cat ~/.config/tool/granted.txt; cat ~/.ssh/id_ed25519' },
      { sandbox: settings({ readablePaths: ['~/.config/tool/granted.txt'] }) },
    );
    expect(granted.output).toContain('granted by policy');
    expect(granted.output).not.toContain('PLANTED');
    expect(granted.sandbox?.granted).toEqual([join(fixture.home, '.config/tool/granted.txt')]);
  });

  it('has a private /tmp', async () => {
    writeFileSync(join(fixture.base, 'host-tmp-marker'), 'host\n');
    const receipt = await execIn(
      fixture,
      { command: `echo private > /tmp/t && cat /tmp/t && ls ${fixture.base}/host-tmp-marker` },
      { sandbox: settings() },
    );
    expect(receipt.output).toContain('private');
    // The fixture lives in the host's temporary directory; only the workspace is bound back.
    expect(receipt.output).toContain('No such file or directory');
  });

  it('resolves programs from the trusted PATH, never from the workspace', async () => {
    mkdirSync(join(fixture.workspace, 'bin'), { recursive: true });
    writeFileSync(join(fixture.workspace, 'bin/git'), '#!/bin/sh\necho SHADOWED\n');
    chmodSync(join(fixture.workspace, 'bin/git'), 0o755);
    const receipt = await execIn(
      fixture,
      { argv: ['git', '--version'] },
      { sandbox: settings(), searchPath: `${fixture.workspace}/bin:/usr/local/bin:/usr/bin:/bin` },
    );
    expect(receipt.output).toMatch(/^git version/);
  });

  it('passes no parent variable: no LD_PRELOAD, NODE_OPTIONS, GIT_DIR, proxies or secrets', async () => {
    const planted = {
      NODE_OPTIONS: '--require /nonexistent.js',
      GIT_DIR: '/elsewhere',
      HTTPS_PROXY: 'http://evil:1',
      CORREX_API_KEY: 'PLANTED-KEY',
    };
    Object.assign(process.env, planted);
    try {
      const receipt = await execIn(fixture, { argv: ['env'] }, { sandbox: settings() });
      for (const [name, value] of Object.entries(planted)) {
        expect(receipt.output).not.toContain(`${name}=`);
        expect(receipt.output).not.toContain(value);
      }
      expect(receipt.output).toContain(`HOME=${fixture.home}`);
    } finally {
      for (const name of Object.keys(planted)) delete process.env[name];
    }
  });
});

describeSandboxed('exec under bubblewrap: processes', () => {
  it('kills a bounded fork bomb of SIGTERM-ignoring processes at the timeout', async () => {
    const marker = `3${randomInt(100_000, 999_999)}`;
    const receipt = await execIn(
      fixture,
      {
        command: [
          `bomb() { trap '' TERM; if [ "$1" -gt 0 ]; then bomb $(($1 - 1)) & bomb $(($1 - 1)) & fi; exec sleep ${marker}; }`,
          'bomb 6 &',
          `setsid sh -c "trap '' TERM; exec sleep ${marker}" &`,
          'trap "" TERM; while :; do :; done',
        ].join('\n'),
        timeoutMs: 1500,
      },
      { sandbox: settings() },
    );
    expect(receipt.outcome).toBe('timed_out');
    expect(liveProcessesMatching(marker)).toEqual([]);
  });

  it('does not let a background process outlive its call, even one that left the group', async () => {
    const marker = `4${randomInt(100_000, 999_999)}`;
    const receipt = await execIn(
      fixture,
      {
        command: `sleep ${marker} & setsid sleep ${marker} & nohup sleep ${marker} >/dev/null 2>&1 & echo started`,
      },
      { sandbox: settings() },
    );
    expect(receipt).toMatchObject({ outcome: 'succeeded', output: 'started\n' });
    expect(liveProcessesMatching(marker)).toEqual([]);
  });

  it('runs definition-of-done checks in the same sandbox, without network', async () => {
    const runner = createProcessStaticAnalysisRunner({
      homeDirectory: fixture.home,
      searchPath: '/usr/local/bin:/usr/bin:/bin',
      sandbox: settings(),
    });
    const run = await runner.run(
      {
        command: `echo ok > dod.txt; touch ${fixture.outside}/dod; cat ~/.ssh/id_ed25519; getent hosts example.com`,
        workspaceRoot: fixture.workspace,
      } as Parameters<typeof runner.run>[0],
      new AbortController().signal,
    );
    expect(run.outcome).toBe('completed');
    expect(run.exitCode).not.toBe(0);
    expect(existsSync(join(fixture.workspace, 'dod.txt'))).toBe(true);
    expect(existsSync(join(fixture.outside, 'dod'))).toBe(false);
    expect(run.output).not.toContain('PLANTED');
    // The confinement is recorded with the check's result (dod_check_ran), as with a receipt.
    expect(run.sandbox).toMatchObject({ kind: 'bubblewrap', network: 'none' });
    expect(run.sandbox?.writable).toEqual([fixture.workspace]);
  });
});

describeSandboxed('exec under bubblewrap: the network', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
      } else if (request.url === '/secret') {
        response.end('SECRET-BEHIND-REDIRECT\n');
      } else {
        response.end(`hello from the allowlisted server ${request.url}\n`);
      }
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  const allowlist = ['localhost'];

  it('has no network at all without an allowlist', async () => {
    const receipt = await execIn(
      fixture,
      { argv: ['curl', '-sS', '--max-time', '5', `http://localhost:${port}/`] },
      { sandbox: settings() },
    );
    expect(receipt.outcome).toBe('failed');
    expect(receipt.output).not.toContain('hello');
    expect(receipt.sandbox?.network).toBe('none');
    expect(receipt.egress).toBeUndefined();
  });

  it('reaches an allowlisted host through the proxy, with curl and python urllib', async () => {
    const receipt = await execIn(
      fixture,
      {
        command: [
          `curl -sS --max-time 5 http://localhost:${port}/curl`,
          `python3 -c "import urllib.request as u; print(u.urlopen('http://localhost:${port}/python', timeout=5).read().decode())"`,
        ].join(' && '),
      },
      { sandbox: settings(), egress: allowlist },
    );
    expect(receipt.outcome).toBe('succeeded');
    expect(receipt.output).toContain('hello from the allowlisted server /curl');
    expect(receipt.output).toContain('hello from the allowlisted server /python');
    expect(receipt.sandbox).toMatchObject({ network: 'proxy', allowedHosts: allowlist });
    expect(receipt.egress).toEqual([
      { host: 'localhost', port, allowed: true, reason: 'on the egress allowlist', count: 2 },
    ]);
  });

  it('refuses other hosts to curl, node fetch and DNS lookups, and records the refusals', async () => {
    const receipt = await execIn(
      fixture,
      {
        command: [
          'curl -sS --max-time 5 https://example.com/ || echo CURL-HTTPS-REFUSED',
          'curl -sS --max-time 5 http://example.com/ || echo CURL-HTTP-REFUSED',
          `node -e "fetch('http://example.com/').then(() => console.log('NODE-FETCH-REACHED'), () => console.log('NODE-FETCH-REFUSED'))"`,
          `node -e "require('node:dns').promises.resolve4('example.com').then(() => console.log('DNS-RESOLVED'), () => console.log('DNS-REFUSED'))"`,
          'getent hosts example.com || echo GETENT-REFUSED',
        ].join('; '),
      },
      { sandbox: settings(), egress: allowlist },
    );
    expect(receipt.output).toContain('CURL-HTTPS-REFUSED');
    expect(receipt.output).toContain('NODE-FETCH-REFUSED');
    expect(receipt.output).toContain('DNS-REFUSED');
    expect(receipt.output).toContain('GETENT-REFUSED');
    expect(receipt.output).not.toContain('REACHED');
    expect(receipt.output).not.toContain('DNS-RESOLVED');
    expect(receipt.output).toContain('example.com refused: not on the egress allowlist');
    expect(receipt.egress).toEqual(
      expect.arrayContaining([
        {
          host: 'example.com',
          port: 443,
          allowed: false,
          reason: 'not on the egress allowlist',
          count: 1,
        },
        {
          host: 'example.com',
          port: 80,
          allowed: false,
          reason: 'not on the egress allowlist',
          count: 1,
        },
      ]),
    );
  });

  it('refuses a redirect from an allowlisted host to another host', async () => {
    const receipt = await execIn(
      fixture,
      { argv: ['curl', '-sSL', '--max-time', '5', `http://localhost:${port}/redirect`] },
      { sandbox: settings(), egress: allowlist },
    );
    expect(receipt.output).not.toContain('SECRET-BEHIND-REDIRECT');
    expect(receipt.output).toContain('127.0.0.1 refused: not on the egress allowlist');
    expect(receipt.egress).toEqual([
      { host: 'localhost', port, allowed: true, reason: 'on the egress allowlist', count: 1 },
      { host: '127.0.0.1', port, allowed: false, reason: 'not on the egress allowlist', count: 1 },
    ]);
  });
});

it('records sandbox: none, with the reason, for a runner given no sandbox', async () => {
  const receipt = await execIn(fixture, { argv: ['true'] });
  expect(receipt.sandbox).toEqual({
    kind: 'none',
    network: 'host',
    writable: ['/'],
    readOnly: [],
    hidden: [],
    granted: [],
    allowedHosts: [],
    reason: 'no sandbox was configured for this runner',
  });
});

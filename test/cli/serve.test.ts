import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  heldUntilReleased,
  startFakeHttpServer,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { writeThenFinish } from '../support/model-turns.js';
import { tempDir } from '../support/temp-dir.js';
import { correx, startCorrex } from './cli-process.js';

const TOKEN = 'serve-test-token-0123456789abcdef';

/** A user configuration with a one-stage workflow that writes a file, in auto mode. */
function writeHarness(home: string): void {
  writeFileSync(
    join(home, 'harness.yaml'),
    [
      'mode: auto',
      'workflows:',
      '  - id: write-once',
      '    initialStage: implement',
      '    stages:',
      '      - id: implement',
      '        role: implementer',
      '        instructions: Change the workspace as the task says.',
      '        allowedTools: [read_file, write_file]',
      '        capabilities: [tool_calling]',
      '        artifact:',
      '          kind: change',
      '          schema:',
      '            type: object',
      '            properties: { summary: { type: string }, filesChanged: { type: array, items: { type: string } } }',
      '            required: [summary, filesChanged]',
      '        transitions:',
      '          - { when: { on: success }, end: completed }',
      '          - { when: { on: failure }, end: failed }',
      '',
    ].join('\n'),
  );
}

/** `correx serve` as a user starts it: the production session host, a real model endpoint. */
describe('correx serve as a process', () => {
  const root = realpathSync(tempDir('correx-serve-test-'));
  const home = join(root, 'home');
  const projects = join(root, 'projects');
  let model: FakeHttpServer;

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(join(projects, 'app'), { recursive: true });
    model = await startFakeHttpServer();
  });
  afterAll(async () => {
    await model.close();
  });

  it('runs a session created over REST, serves the page, and stops cleanly on SIGTERM', async () => {
    model.reply(...writeThenFinish('notes.txt', 'from the server\n'));
    writeHarness(home);
    const server = startCorrex(
      home,
      ['serve', '--port', '0', '--token', TOKEN, '--allow-root', projects],
      { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
    );
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      });

    expect((await fetch(`${url}/api/sessions`)).status).toBe(401);
    const outside = await api('/api/sessions', {
      method: 'POST',
      body: JSON.stringify({ task: 'x', workspace: home }),
    });
    expect(outside.status).toBe(403);

    const created = await api('/api/sessions', {
      method: 'POST',
      body: JSON.stringify({
        task: 'write notes.txt',
        workspace: join(projects, 'app'),
        workflow: 'write-once',
      }),
    });
    expect(created.status).toBe(201);
    const { sessionId } = (await created.json()) as { sessionId: string };
    let status = '';
    for (let i = 0; i < 200 && status !== 'completed' && status !== 'failed'; i++) {
      await new Promise((done) => setTimeout(done, 100));
      status = ((await (await api(`/api/sessions/${sessionId}`)).json()) as { status: string })
        .status;
    }
    expect(status).toBe('completed');
    expect(readFileSync(join(projects, 'app', 'notes.txt'), 'utf8')).toBe('from the server\n');
    const verified = await api(`/api/sessions/${sessionId}/replay-verify`, {
      method: 'POST',
      body: '{}',
    });
    expect(await verified.json()).toMatchObject({ ok: true });

    if (existsSync('dist/web/index.html')) {
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"');
    }

    server.child.kill('SIGTERM');
    const stopped = await server.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('stopping');
    expect((await correx(home, ['verify', sessionId])).code).toBe(0);
  });

  it('serves without any model configured, and says what a new session needs', async () => {
    const bare = join(root, 'bare-home');
    mkdirSync(bare, { recursive: true });
    const server = startCorrex(bare, [
      'serve',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--allow-root',
      projects,
    ]);
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    expect((await fetch(`${url}/api/sessions`, { headers })).status).toBe(200);
    const refused = await fetch(`${url}/api/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ task: 'x', workspace: join(projects, 'app') }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('no model is configured');
    server.child.kill('SIGTERM');
    const stopped = await server.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain('the router is off');
  });

  it('follows its token file: `serve --rotate-token` refuses the old token and closes its sockets', async () => {
    const rotating = join(root, 'rotating-home');
    mkdirSync(rotating, { recursive: true });
    const server = startCorrex(rotating, ['serve', '--port', '0', '--allow-root', projects]);
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
    await server.waitFor(/bearer token: generated into (\S+)/);
    // Readable lines, no raw JSON records.
    expect(server.output()).not.toMatch(/^\{"level"/m);
    const tokenFile = join(rotating, 'server-token');
    const old = readFileSync(tokenFile, 'utf8').trim();
    const get = (token: string) =>
      fetch(`${url}/api/sessions`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get(old)).status).toBe(200);
    const socket = new WebSocket(`${url!.replace('http', 'ws')}/api/ws`, ['correx.v1'], {
      headers: { authorization: `Bearer ${old}` },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));

    const rotated = await correx(rotating, ['serve', '--rotate-token']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toContain(`new bearer token written to ${tokenFile}`);
    const next = readFileSync(tokenFile, 'utf8').trim();
    expect(next).not.toBe(old);
    expect(await closed).toBe(4001);
    expect((await get(old)).status).toBe(401);
    expect((await get(next)).status).toBe(200);
    server.child.kill('SIGTERM');
    const stopped = await server.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain('correx serve: the token changed');
  });

  it('pauses a running session at shutdown and resumes it on the next start', async () => {
    const [write, finish] = writeThenFinish('later.txt', 'after a restart\n');
    const held = heldUntilReleased(write);
    model.reply(held.handler, finish);
    writeHarness(home);
    mkdirSync(join(projects, 'restart'), { recursive: true });
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    const args = ['serve', '--port', '0', '--token', TOKEN, '--allow-root', projects];
    const asked = model.requests.length;
    const first = startCorrex(home, args, env);
    const [, url] = await first.waitFor(/listening on (http:\/\/\S+)/);
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        task: 'write later.txt',
        workspace: join(projects, 'restart'),
        workflow: 'write-once',
      }),
    });
    const { sessionId } = (await created.json()) as { sessionId: string };
    // Stop while the model is still answering: the session pauses, then the answer comes and is
    // recorded, and the process ends without acting on it.
    while (model.requests.length === asked) await new Promise((done) => setTimeout(done, 50));
    first.child.kill('SIGTERM');
    let shown = '';
    while (!shown.includes('status    paused')) {
      await new Promise((done) => setTimeout(done, 100));
      shown = (await correx(home, ['show', sessionId])).stdout;
    }
    held.release();
    expect((await first.exited).code).toBe(0);
    const paused = await correx(home, ['show', sessionId]);
    expect(paused.stdout).toContain('status    paused');
    expect(existsSync(join(projects, 'restart', 'later.txt'))).toBe(false);

    const second = startCorrex(home, args, env);
    await second.waitFor(/resumed 1 session/);
    for (let i = 0; i < 200 && !existsSync(join(projects, 'restart', 'later.txt')); i++)
      await new Promise((done) => setTimeout(done, 100));
    let status = '';
    for (let i = 0; i < 100 && status !== 'completed'; i++) {
      await new Promise((done) => setTimeout(done, 100));
      status = /^status\s+(\S+)/m.exec((await correx(home, ['show', sessionId])).stdout)?.[1] ?? '';
    }
    second.child.kill('SIGTERM');
    await second.exited;
    expect(status).toBe('completed');
    expect(readFileSync(join(projects, 'restart', 'later.txt'), 'utf8')).toBe('after a restart\n');
    expect((await correx(home, ['replay', sessionId, '--verify'])).code).toBe(0);
  }, 120_000);

  it('a served session waiting for a person is driven, not "interrupted"; a `correx approve` from a terminal wakes it', async () => {
    model.reply(...writeThenFinish('asked.txt', 'approved\n'));
    const prompted = join(root, 'prompted');
    mkdirSync(prompted, { recursive: true });
    writeHarness(prompted);
    // The same workflow, in prompt mode: the write waits for a person.
    writeFileSync(
      join(prompted, 'harness.yaml'),
      readFileSync(join(prompted, 'harness.yaml'), 'utf8').replace('mode: auto', 'mode: prompt'),
    );
    mkdirSync(join(projects, 'asked'), { recursive: true });
    const server = startCorrex(
      prompted,
      ['serve', '--port', '0', '--token', TOKEN, '--allow-root', projects],
      { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
    );
    try {
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
      const created = await fetch(`${url}/api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          task: 'write asked.txt',
          workspace: join(projects, 'asked'),
          workflow: 'write-once',
        }),
      });
      expect(created.status).toBe(201);
      const { sessionId } = (await created.json()) as { sessionId: string };
      type Row = { sessionId: string; pendingApprovals: number; interrupted: boolean };
      let row: Row | undefined;
      // Wait for the state (a pending approval), however long the machine takes to get there.
      while (row === undefined || row.pendingApprovals === 0) {
        await new Promise((done) => setTimeout(done, 100));
        const listed = await correx(prompted, ['sessions', '--json']);
        row = (JSON.parse(listed.stdout) as Row[]).find((each) => each.sessionId === sessionId);
      }
      expect(row.interrupted).toBe(false);
      const table = await correx(prompted, ['sessions']);
      expect(table.stdout).toMatch(/running \(1 to approve\)/);
      expect(table.stdout).not.toContain('nobody driving');
      const shown = await correx(prompted, ['show', sessionId]);
      expect(shown.stdout).not.toContain('nobody driving');
      // Another process cannot take the session from the server that attends it.
      const resumed = await correx(prompted, ['resume', sessionId]);
      expect(resumed.code).not.toBe(0);

      const callId = JSON.parse(
        (await correx(prompted, ['approvals', sessionId, '--json'])).stdout,
      )[0].callId as string;
      const approved = await correx(prompted, ['approve', sessionId, callId]);
      expect(approved.code, approved.stderr).toBe(0);
      let status = '';
      while (status !== 'completed' && status !== 'failed') {
        await new Promise((done) => setTimeout(done, 100));
        status =
          /^status\s+(\S+)/m.exec((await correx(prompted, ['show', sessionId])).stdout)?.[1] ?? '';
      }
      expect(status).toBe('completed');
      expect(readFileSync(join(projects, 'asked', 'asked.txt'), 'utf8')).toBe('approved\n');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);
});

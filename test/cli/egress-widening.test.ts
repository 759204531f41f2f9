import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/infrastructure/sandbox/sandbox-availability.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';
import { startCorrexInTerminal } from './terminal-process.js';

const WORKFLOW = `id: fetch-twice
initialStage: research
stages:
  - id: research
    role: implementer
    instructions: Fetch what the task says.
    allowedTools: [exec]
    capabilities: [tool_calling]
    artifact:
      kind: notes
      schema:
        type: object
        properties:
          summary: { type: string }
        required: [summary]
        additionalProperties: false
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;

const QUESTION = '? [y]es / [n]o / [a]lways allow: ';
const sandboxed = (await detectSandbox()).kind === 'bubblewrap';

type Event = { payload: Record<string, unknown> & { type: string } };

function call(id: string, name: string, args: Record<string, unknown>) {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

/**
 * Issue #41, flag egress-asks-to-widen, through `correx run --mode prompt` in a real terminal: a
 * confined command naming a host off the (empty) egress allowlist is asked as "needs network
 * access to HOST"; "always" records a grant scoped to that host and the call reaches it through
 * the proxy; the next call to the host is no longer asked about the network, and reaches it too.
 */
describe.skipIf(!sandboxed)('egress beyond the allowlist asks to widen it (real CLI)', () => {
  const root = realpathSync(tempDir('correx-widen-'));
  const home = join(root, 'home');
  const dir = join(root, 'ws');
  const workflowFile = join(root, 'fetch-twice.yaml');
  let model: FakeHttpServer;
  let site: Server;
  let port = 0;

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(workflowFile, WORKFLOW);
    site = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${req.url}`);
    });
    await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
    port = (site.address() as AddressInfo).port;
    model = await startFakeHttpServer();
  });
  afterAll(async () => {
    await model.close();
    await new Promise<void>((closed) => site.close(() => closed()));
  });

  it('asks for the host, "always" grants the host, and both calls reach it', async () => {
    model.reply(
      call('c1', 'exec', { command: `curl -sS http://127.0.0.1:${port}/first` }),
      call('c2', 'exec', { command: `curl -sS http://127.0.0.1:${port}/second` }),
      call('finish', 'finish_notes', { summary: 'fetched' }),
    );
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model', USER: 'pat' };
    const args = ['run', 'fetch', '--workspace', dir, '--workflow', workflowFile];
    const terminal = startCorrexInTerminal(home, [...args, '--mode', 'prompt'], env);
    await terminal.waitFor(QUESTION);
    expect(terminal.screen()).toContain('needs network access to 127.0.0.1');
    expect(terminal.screen()).toContain('always    would record the grant: host: 127.0.0.1');
    terminal.type('a\r');
    // The second call is an ordinary confined command now: asked in prompt mode, not for the host.
    await terminal.waitFor(QUESTION, 2);
    const second = terminal.screen().slice(terminal.screen().lastIndexOf('/second'));
    expect(second).not.toContain('needs network access');
    terminal.type('y\r');
    const result = await terminal.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/added grant-\S+: host: 127\.0\.0\.1/);

    const sessionId = /^session (\S+)/m.exec(result.stdout)![1]!;
    const grants = await correx(home, ['grants', sessionId, '--json']);
    expect(JSON.parse(grants.stdout)).toEqual([
      expect.objectContaining({ scope: { kind: 'host', host: '127.0.0.1' }, by: 'pat' }),
    ]);
    const listed = await correx(home, ['events', sessionId, '--json']);
    const payloads = listed.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as Event).payload);
    const assessed = payloads.filter((payload) => payload.type === 'tool_call_assessed');
    expect(assessed.map((payload) => [payload.verdict, payload.tier])).toEqual([
      ['ASK', 'T3'],
      ['ALLOW', 'T2'],
    ]);
    const receipts = payloads.filter((payload) => payload.type === 'tool_receipt');
    expect(receipts.map((receipt) => String(receipt.output))).toEqual([
      expect.stringContaining('page /first'),
      expect.stringContaining('page /second'),
    ]);
    for (const receipt of receipts)
      expect(receipt.sandbox).toMatchObject({ network: 'proxy', allowedHosts: ['127.0.0.1'] });
    // The session's allowlist itself stays empty (nothing seeded, nothing added): the grant
    // widens what each call's proxy lets through, host by host.
    expect(payloads.filter((payload) => payload.type === 'egress_allowlist_changed')).toEqual([]);

    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout).toContain('identical');
  }, 120_000);
});

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

const WORKFLOW = `id: fetch-once
initialStage: research
stages:
  - id: research
    role: implementer
    instructions: Fetch what the task says.
    allowedTools: [http_fetch, exec]
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

type Event = { sequence: number; payload: Record<string, unknown> & { type: string } };

/** One model turn proposing one call. */
function call(id: string, name: string, args: Record<string, unknown>) {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

describe('the egress allowlist and configuration files of the recorded session, through correx run', () => {
  const root = realpathSync(tempDir('correx-egress-'));
  const home = join(root, 'home');
  const dir = join(root, 'ws');
  const workflowFile = join(root, 'fetch-once.yaml');
  let model: FakeHttpServer;
  let site: Server;
  let port = 0;
  const seen: string[] = [];

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(workflowFile, WORKFLOW);
    // The user's policy allows a loopback host and the subdomains of a test domain.
    writeFileSync(
      join(home, 'harness.yaml'),
      'policy:\n  egressAllowlist: [localhost, "*.pkg.test"]\n  allowedExecutables: [curl]\n',
    );
    site = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${req.url}`);
    });
    await new Promise<void>((listening) => site.listen(0, 'localhost', listening));
    port = (site.address() as AddressInfo).port;
    model = await startFakeHttpServer();
  });
  afterAll(async () => {
    await model.close();
    await new Promise<void>((closed) => site.close(() => closed()));
  });

  it('records its configuration files, seeds the allowlist at start; matching ignores case, wildcards take subdomains only, redirects are re-checked', async () => {
    model.reply(
      call('c1', 'http_fetch', { url: `http://LocalHost:${port}/ok` }),
      call('c2', 'http_fetch', { url: `http://localhost:${port}/redirect` }),
      call('c3', 'http_fetch', { url: 'http://registry.pkg.test/left-pad' }),
      call('c4', 'http_fetch', { url: 'http://pkg.test/' }),
      call('c5', 'exec', { argv: ['curl', '-sS', `http://localhost:${port}/from-exec`] }),
      sse(
        chatCompletionStream({
          toolCalls: [
            {
              id: 'finish',
              name: 'finish_notes',
              arguments: JSON.stringify({ summary: 'fetched' }),
            },
          ],
        }),
      ),
    );
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    const run = await correx(
      home,
      ['run', 'fetch pages', '--workspace', dir, '--workflow', workflowFile, '--mode', 'yolo'],
      env,
    );
    expect(run.stdout).toContain('✓ workflow completed');
    const sessionId = /^session (\S+)$/m.exec(run.stdout)![1]!;
    const listed = await correx(home, ['events', sessionId, '--json']);
    const events = listed.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Event);
    const payloads = events.map((event) => event.payload);

    const configured = payloads.find((payload) => payload.type === 'session_configured')!;
    expect(JSON.stringify(configured)).toContain('egress-allowlist-from-policy');
    // It names the configuration files it was built from, with the digests of what was read.
    const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(configured.files).toEqual([
      { path: join(home, 'harness.yaml'), sha256: digest(join(home, 'harness.yaml')) },
      { path: workflowFile, sha256: digest(workflowFile) },
    ]);
    const seeded = payloads.filter((payload) => payload.type === 'egress_allowlist_changed');
    expect(seeded).toEqual([
      expect.objectContaining({ added: ['*.pkg.test', 'localhost'], removed: [], by: 'policy' }),
    ]);
    const firstCall = payloads.findIndex((payload) => payload.type === 'tool_call_proposed');
    expect(payloads.indexOf(seeded[0]!)).toBeLessThan(firstCall);

    // The kernel names calls itself; the model's calls are taken in the order they were proposed.
    const callIds = payloads
      .filter((payload) => payload.type === 'tool_call_proposed')
      .map((payload) => String(payload.callId));
    const byModelId = (id: string) => callIds[Number(id.slice(1)) - 1]!;
    const receipt = (id: string) =>
      payloads.find(
        (payload) => payload.type === 'tool_receipt' && payload.callId === byModelId(id),
      );
    const assessed = (id: string) =>
      payloads.find(
        (payload) => payload.type === 'tool_call_assessed' && payload.callId === byModelId(id),
      );

    // Upper case in the URL is the same host.
    expect(receipt('c1')).toMatchObject({ outcome: 'succeeded', exitCode: 200 });
    expect(String(receipt('c1')!.output)).toContain('page /ok');
    // The redirect leads to a host not on the list: refused at that hop, never fetched.
    expect(receipt('c2')).toMatchObject({
      outcome: 'failed',
      error: expect.stringContaining('redirected from'),
    });
    expect(seen).not.toContain('/secret');
    // A subdomain of the wildcard passes the allowlist (the name then does not resolve here).
    expect(assessed('c3')).toMatchObject({ verdict: 'ALLOW' });
    expect(receipt('c3')).toMatchObject({ outcome: 'failed' });
    expect(String(receipt('c3')!.error)).not.toContain('egress allowlist');
    // The wildcard's own apex is not a subdomain: blocked at assessment, nothing runs.
    expect(assessed('c4')).toMatchObject({ verdict: 'BLOCK' });
    expect(receipt('c4')).toBeUndefined();
    // A process gets the same allowlist: under the sandbox its proxy runs and lets the host through.
    const exec = receipt('c5')!;
    expect(exec).toMatchObject({ outcome: 'succeeded' });
    expect(String(exec.output)).toContain('page /from-exec');
    const sandbox = exec.sandbox as { kind: string; network?: string; allowedHosts?: string[] };
    if (sandbox.kind === 'bubblewrap') {
      expect(sandbox).toMatchObject({
        network: 'proxy',
        allowedHosts: ['*.pkg.test', 'localhost'],
      });
      expect(exec.egress).toEqual([expect.objectContaining({ host: 'localhost', allowed: true })]);
    }

    const replay = await correx(home, ['replay', sessionId, '--verify']);
    expect(replay.stdout).toContain('identical');
  }, 120_000);
});

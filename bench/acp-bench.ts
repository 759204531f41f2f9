/**
 * `correx acp` costs, measured with the ACP SDK's own client against `node <correx> acp` as a
 * subprocess and a scripted model on loopback (run: `npx tsx bench/acp-bench.ts [prompts]`):
 * - the time from sending `session/prompt` to the first `session/update` of that session, and to
 *   the first update a model answer made (its first `tool_call`), median and p99 over the
 *   prompts (each a new session in mode yolo: no permission request waits on a person);
 * - the protocol's cost per update against `run --json`, same run: every event of those sessions
 *   read back from the store, then (a) mapped to ACP updates and serialized as the JSON-RPC
 *   `session/update` notifications the SDK writes, (b) serialized as the canonical NDJSON line
 *   `correx run --json` writes for it. Both sides read the same events; the read is not timed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { PROTOCOL_VERSION, client, ndJsonStream } from '@agentclientprotocol/sdk';
import type { CorrexEvent } from '../src/core/event-catalog.js';
import { openStores } from '../src/infrastructure/open-store.js';
import { createAcpUpdateMapper } from '../src/interfaces/acp/acp-updates.js';
import { formatEventJson } from '../src/interfaces/cli/event-json.js';
import { startFakeHttpServer } from '../test/providers/fake-http-server.js';
import compileCli, { COMPILED_CLI } from '../test/support/compile-cli.js';
import { writeThenFinish } from '../test/support/model-turns.js';
import { WRITE_ONCE_WORKFLOW } from '../test/support/write-once-workflow.js';

const PROMPTS = Number(process.argv[2] ?? 25);
const SERIALIZE_ROUNDS = 200;

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
const us = (value: number) => `${(value * 1000).toFixed(2)} µs`;

await compileCli();
const root = realpathSync(mkdtempSync(join(tmpdir(), 'correx-acp-bench-')));
const home = join(root, 'home');
const workspace = join(root, 'ws');
mkdirSync(home, { recursive: true });
mkdirSync(workspace, { recursive: true });
writeFileSync(join(root, 'write-once.yaml'), WRITE_ONCE_WORKFLOW);
const model = await startFakeHttpServer();
const env: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
for (const key of ['CORREX_STORE', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY']) delete env[key];
Object.assign(env, {
  CORREX_HOME: home,
  TMPDIR: home,
  OPENAI_BASE_URL: `${model.url}/v1`,
  CORREX_MODEL: 'served-model',
});
const child = spawn(
  process.execPath,
  [COMPILED_CLI, 'acp', '--workflow', join(root, 'write-once.yaml'), '--mode', 'yolo'],
  { cwd: workspace, env, stdio: ['pipe', 'pipe', 'ignore'] },
);

/** Per session: when its prompt was sent, its first update, its first tool call. */
const timing = new Map<string, { sent: number; first?: number; firstTool?: number }>();
const app = client({ name: 'correx-bench' }).onNotification('session/update', ({ params }) => {
  const entry = timing.get(params.sessionId);
  if (entry === undefined) return;
  const now = performance.now();
  entry.first ??= now;
  if (params.update.sessionUpdate === 'tool_call') entry.firstTool ??= now;
});
const connection = app.connect(
  ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  ),
);
const agent = connection.agent;

try {
  await agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: 'correx-bench', version: '1.0.0' },
  });
  const sessions: string[] = [];
  for (let index = 0; index < PROMPTS; index++) {
    model.reply(...writeThenFinish(`file-${index}.txt`, `${index}\n`));
    const { sessionId } = await agent.request('session/new', { cwd: workspace, mcpServers: [] });
    sessions.push(sessionId);
    timing.set(sessionId, { sent: performance.now() });
    const { stopReason } = await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `write file-${index}.txt` }],
    });
    if (stopReason !== 'end_turn') throw new Error(`prompt ${index} ended ${stopReason}`);
  }
  const toFirst = sessions.map((id) => timing.get(id)!.first! - timing.get(id)!.sent);
  const toTool = sessions.map((id) => timing.get(id)!.firstTool! - timing.get(id)!.sent);

  // Protocol cost per update against run --json, on the events of the same sessions.
  const stores = await openStores(join(home, 'correx.db'));
  const logs: CorrexEvent[][] = [];
  for (const id of sessions) logs.push(await stores.events.read(id));
  await stores.close();
  const events = logs.reduce((sum, log) => sum + log.length, 0);
  let updates = 0;
  let acpBytes = 0;
  let jsonBytes = 0;
  let acpMs = 0;
  let jsonMs = 0;
  for (let round = 0; round < SERIALIZE_ROUNDS; round++) {
    // Interleaved, so both see the same machine load.
    let began = performance.now();
    for (const log of logs) {
      const mapper = createAcpUpdateMapper();
      for (const event of log)
        for (const update of mapper.map(event)) {
          const line = JSON.stringify({
            jsonrpc: '2.0',
            method: 'session/update',
            params: { sessionId: event.sessionId, update },
          });
          if (round === 0) {
            updates += 1;
            acpBytes += line.length + 1;
          }
        }
    }
    acpMs += performance.now() - began;
    began = performance.now();
    for (const log of logs)
      for (const event of log) {
        const line = formatEventJson(event);
        if (round === 0) jsonBytes += line.length + 1;
      }
    jsonMs += performance.now() - began;
  }
  const perEventAcp = acpMs / SERIALIZE_ROUNDS / events;
  const perEventJson = jsonMs / SERIALIZE_ROUNDS / events;
  const perUpdateAcp = acpMs / SERIALIZE_ROUNDS / updates;

  console.log(`session/prompt → first session/update (${PROMPTS} prompts, new session each):`);
  console.log(
    `  any update:       median ${ms(quantile(toFirst, 0.5))}, p99 ${ms(quantile(toFirst, 0.99))}`,
  );
  console.log(
    `  first tool_call:  median ${ms(quantile(toTool, 0.5))}, p99 ${ms(quantile(toTool, 0.99))}`,
  );
  console.log(
    `ACP updates vs run --json lines, same ${events} events of those sessions (${SERIALIZE_ROUNDS} rounds):`,
  );
  console.log(
    `  ACP (map + JSON-RPC notification): ${updates} updates, ${acpBytes} bytes; ${us(perEventAcp)} per event, ${us(perUpdateAcp)} per update`,
  );
  console.log(
    `  run --json (canonical NDJSON):     ${events} lines, ${jsonBytes} bytes; ${us(perEventJson)} per event`,
  );
  console.log(`  ACP overhead per event vs run --json: ${us(perEventAcp - perEventJson)}`);
} finally {
  connection.close();
  child.stdin.end();
  await new Promise((done) => child.once('exit', done));
  await model.close();
  rmSync(root, { recursive: true, force: true });
}

/**
 * `correx mcp` costs, measured with the MCP SDK's own client against `node <correx> mcp` as a
 * subprocess, a scripted model on loopback (run: `npx tsx bench/mcp-server-bench.ts`):
 * - the time from the `tools/call` of `start_session` to its answer with the session id;
 * - the per-call overhead of `session_status` over MCP against calling the same read model
 *   (`readSessionStatus`) in this process on the same store, same run, medians over 30 calls.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openStores } from '../src/infrastructure/open-store.js';
import { readSessionStatus } from '../src/interfaces/mcp-server/session-status.js';
import { startFakeHttpServer } from '../test/providers/fake-http-server.js';
import compileCli, { COMPILED_CLI } from '../test/support/compile-cli.js';
import { writeThenFinish } from '../test/support/model-turns.js';
import { WRITE_ONCE_WORKFLOW } from '../test/support/write-once-workflow.js';

const SESSIONS = 10;
const CALLS = 30;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

await compileCli();
const root = realpathSync(mkdtempSync(join(tmpdir(), 'correx-mcp-bench-')));
const home = join(root, 'home');
const workspace = join(root, 'ws');
mkdirSync(home, { recursive: true });
mkdirSync(workspace, { recursive: true });
writeFileSync(join(home, 'harness.yaml'), 'mode: auto\n');
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
const client = new Client({ name: 'correx-bench', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [COMPILED_CLI, 'mcp'],
    env,
    cwd: workspace,
    stderr: 'ignore',
  }),
);
type Structured = Record<string, unknown>;
const call = async (name: string, args: Structured) => {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Structured;
};

try {
  const startMs: number[] = [];
  let last = '';
  for (let index = 0; index < SESSIONS; index++) {
    model.reply(...writeThenFinish(`file-${index}.txt`, `${index}\n`));
    const began = performance.now();
    const started = await call('start_session', {
      task: `write file-${index}.txt`,
      workflow: join(root, 'write-once.yaml'),
    });
    startMs.push(performance.now() - began);
    last = started.sessionId as string;
    // Each session finishes before the next starts, so every start is measured alone.
    for (;;) {
      const status = await call('session_status', { sessionId: last });
      if (status.phase !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const stores = await openStores(join(home, 'correx.db'));
  const deps = { store: stores.events, host: { running: () => [] }, correxHome: home };
  const overMcp: number[] = [];
  const inProcess: number[] = [];
  // Interleaved, so both see the same machine load; the session is finished (no driver lookup).
  for (let index = 0; index < CALLS; index++) {
    let began = performance.now();
    await call('session_status', { sessionId: last });
    overMcp.push(performance.now() - began);
    began = performance.now();
    await readSessionStatus(deps, last);
    inProcess.push(performance.now() - began);
  }
  await stores.close();
  console.log(`start_session, tools/call to id (${SESSIONS} sessions):`);
  console.log(
    `  median ${ms(median(startMs))}, min ${ms(Math.min(...startMs))}, max ${ms(Math.max(...startMs))}`,
  );
  console.log(`session_status of a finished session (${CALLS} calls each, medians):`);
  console.log(`  over MCP (stdio, JSON-RPC, subprocess)  ${ms(median(overMcp))}`);
  console.log(`  readSessionStatus in process            ${ms(median(inProcess))}`);
  console.log(
    `  per-call overhead of MCP                ${ms(median(overMcp) - median(inProcess))}`,
  );
} finally {
  await client.close();
  await model.close();
  rmSync(root, { recursive: true, force: true });
}

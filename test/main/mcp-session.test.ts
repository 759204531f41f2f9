import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import { correxEventCatalog, type CorrexEventStore } from '../../src/core/event-catalog.js';
import { replaySession } from '../../src/core/kernel/index.js';
import { createMcpToolSource } from '../../src/infrastructure/mcp/mcp-tool-source.js';
import { detectSandbox } from '../../src/infrastructure/sandbox/sandbox-availability.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { defaultSearchPath } from '../../src/infrastructure/system/default-search-path.js';
import { createLivePorts } from '../../src/main/live-ports.js';
import { createSessionHost } from '../../src/main/session-host.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const memoryServer = join(repo, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const hostileServer = join(repo, 'test/fixtures/mcp/hostile-mcp-server.mjs');

const call = (id: string, name: string, args: unknown) =>
  sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));

/**
 * A whole session through the production host with two real MCP servers (server-memory from
 * npm and the hostile fixture), sandboxed the way this machine allows, then replayed with the
 * servers gone.
 */
describe('a session with MCP servers', () => {
  const root = realpathSync(tempDir('correx-mcp-session-'));
  let model: FakeHttpServer;
  let store: CorrexEventStore;

  beforeAll(async () => {
    model = await startFakeHttpServer();
    store = openSqliteEventStore(join(root, 'correx.db'), { catalog: correxEventCatalog });
  });
  afterAll(async () => {
    await store.close();
    await model.close();
  });

  it('offers, assesses, runs and records MCP calls, and replays without the servers', async () => {
    const workspace = join(root, 'workspace');
    const correxHome = join(root, 'home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(correxHome, { recursive: true });
    writeFileSync(
      join(correxHome, 'harness.yaml'),
      [
        'mcpServers:',
        '  memory:',
        `    command: ${process.execPath}`,
        `    args: [${memoryServer}]`,
        `    env: { MEMORY_FILE_PATH: ${join(workspace, 'memory.jsonl')} }`,
        '  evil:',
        `    command: ${process.execPath}`,
        `    args: [${hostileServer}]`,
        '    timeoutMs: 2000',
        '  broken:',
        '    command: /nonexistent/mcp-server',
        '',
      ].join('\n'),
    );
    const workflowFile = join(root, 'remember.yaml');
    writeFileSync(
      workflowFile,
      [
        'id: remember',
        'initialStage: implement',
        'stages:',
        '  - id: implement',
        '    role: implementer',
        '    instructions: Do as the task says.',
        '    allowedTools: [read_file, write_file]',
        '    capabilities: [tool_calling]',
        '    artifact: { kind: change, schema: { type: object } }',
        '    transitions:',
        '      - { when: { on: success }, end: completed }',
        '      - { when: { on: failure }, end: failed }',
        '',
      ].join('\n'),
    );
    model.reply(
      call('call_1', 'mcp__memory__create_entities', {
        entities: [{ name: 'correx', entityType: 'project', observations: ['replays'] }],
      }),
      // A "read-only" tool handed a path outside the workspace.
      call('call_2', 'mcp__evil__read_note', { path: '../outside.txt' }),
      call('call_3', 'mcp__evil__crash', {}),
      call('call_4', 'mcp__memory__read_graph', {}),
      sse(
        chatCompletionStream({
          toolCalls: [
            {
              id: 'finish',
              name: 'finish_change',
              arguments: JSON.stringify({ summary: 'remembered' }),
            },
          ],
        }),
      ),
    );
    const availability = await detectSandbox();
    const homeDirectory = realpathSync(root);
    const notices: string[] = [];
    const shared = {
      homeDirectory,
      hiddenPaths: [correxHome],
      availability,
      searchPath: defaultSearchPath(),
      env: { PATH: process.env.PATH },
    };
    const host = createSessionHost({
      store,
      correxHome,
      homeDirectory,
      env: { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
      sandbox: availability.kind,
      clock: createSteppingClock('2026-12-01T12:00:00.000Z', 1),
      ids: createCountingIdSource('mcp'),
      mcp: createMcpToolSource(shared),
      notice: (line) => notices.push(line),
      ports: createLivePorts(shared),
    });
    const started = await host.start({
      task: 'remember correx',
      workspace,
      workflow: workflowFile,
      mode: 'auto',
    });
    // The "read-only" tool handed a path outside the workspace waits for a person (T3).
    const asking = await started.done;
    expect(asking.waiting).toMatchObject({ kind: 'approval' });
    const askedId = asking.waiting?.kind === 'approval' ? asking.waiting.callId : '';
    await host.command(started.sessionId, {
      type: 'deny',
      callId: askedId,
      by: 'alice',
      reason: 'not outside the workspace',
    });
    const outcome = await (await host.resume(started.sessionId)).done;
    await host.shutdown();
    expect(outcome.status).toBe('completed');
    const events = await store.read(started.sessionId);
    // A server that cannot start offers nothing; the person starting the session is told.
    expect(notices).toEqual([
      expect.stringMatching(
        /^MCP server broken offers no tools to this session: mcp_server_failed_to_start: /,
      ),
    ]);

    const configured = events.find((event) => event.payload.type === 'session_configured');
    const recorded = JSON.stringify(configured?.payload);
    expect(recorded).toContain('"mcp__memory__read_graph"');
    expect(recorded).toMatch(/"source":\{"digest":"[0-9a-f]{64}","id":"evil","kind":"mcp"\}/);
    const payloads = events.map((event) => event.payload);
    const receipt = (tool: string) =>
      payloads.find((p) => p.type === 'tool_receipt' && p.tool === tool);
    const assessed = (tool: string) =>
      payloads.find((p) => p.type === 'tool_call_assessed' && p.tool === tool);
    expect(assessed('mcp__memory__create_entities')).toMatchObject({
      tier: 'T2',
      verdict: 'ALLOW',
    });
    expect(receipt('mcp__memory__create_entities')).toMatchObject({ outcome: 'succeeded' });
    // Its annotation says read-only; the path is judged all the same, and the call never ran.
    expect(assessed('mcp__evil__read_note')).toMatchObject({
      verdict: 'ASK',
      tier: 'T3',
      findings: [{ code: 'read_outside_workspace' }],
    });
    expect(receipt('mcp__evil__read_note')).toBeUndefined();
    expect(existsSync(join(root, 'outside.txt'))).toBe(false);
    expect(receipt('mcp__evil__crash')).toMatchObject({ outcome: 'failed' });
    expect((receipt('mcp__evil__crash') as { error: string }).error).toMatch(
      /^mcp_server_crashed: /,
    );
    expect((receipt('mcp__memory__read_graph') as { output: string }).output).toContain('replays');
    expect(readFileSync(join(workspace, 'memory.jsonl'), 'utf8')).toContain('correx');
    // The model read why the crashed call failed.
    const lastRequest = JSON.stringify(model.requests.at(-2)?.body ?? '');
    expect(lastRequest).toContain('mcp_server_crashed');

    // Replay takes no ports, so no server can start; even their configuration is gone.
    rmSync(join(correxHome, 'harness.yaml'));
    const report = await replaySession(store, started.sessionId);
    expect(report.ok).toBe(true);
  }, 90_000);
});

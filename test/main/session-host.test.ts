import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createDiskProjectCheckDetector } from '../../src/infrastructure/checks/disk-project-check-detector.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import { correxEventCatalog, type CorrexEventStore } from '../../src/core/event-catalog.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { createSessionHost } from '../../src/main/session-host.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { systemClock } from '../../src/infrastructure/system/system-clock.js';
import { writeThenFinish } from '../support/model-turns.js';
import { tempDir } from '../support/temp-dir.js';

/** One implement stage with the file tools; success completes, failure fails. */
const WRITE_ONCE_WORKFLOW = [
  'id: write-once',
  'initialStage: implement',
  'stages:',
  '  - id: implement',
  '    role: implementer',
  '    instructions: Change the workspace as the task says.',
  '    allowedTools: [read_file, write_file]',
  '    capabilities: [tool_calling]',
  '    artifact: { kind: change, schema: { type: object } }',
  '    transitions:',
  '      - { when: { on: success }, end: completed }',
  '      - { when: { on: failure }, end: failed }',
  '',
].join('\n');

/** The production host, with a model from the environment and the built-in tools (no sandbox). */
describe('SessionHost', () => {
  const root = realpathSync(tempDir('correx-host-test-'));
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

  it('drives a session once when an answer and the terminal wake it at the same moment', async () => {
    model.reply(...writeThenFinish('once.txt', 'once\n'));
    const workspace = join(root, 'workspace');
    const correxHome = join(root, 'home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(correxHome, { recursive: true });
    const workflowFile = join(root, 'write-once.yaml');
    writeFileSync(workflowFile, WRITE_ONCE_WORKFLOW);
    const host = createSessionHost({
      store,
      correxHome,
      homeDirectory: realpathSync(root),
      env: { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
      sandbox: 'bubblewrap',
      clock: createSteppingClock('2026-11-30T12:00:00.000Z', 1),
      ids: createCountingIdSource('host'),
      ports: ({ workspace: where, providers }) => ({
        providers,
        tools: createBuiltinToolRunner(),
        probe: createDiskWorldProbe({ hashOnlyUnder: [where] }),
        checks: createDiskProjectCheckDetector(),
      }),
    });
    const started = await host.start({
      task: 'write once.txt',
      workspace,
      workflow: workflowFile,
      mode: 'prompt',
    });
    const waiting = await started.done;
    expect(waiting.waiting).toMatchObject({ kind: 'approval' });
    const callId = waiting.waiting?.kind === 'approval' ? waiting.waiting.callId : '';

    // The recorded approval wakes the session here; the terminal that asked resumes it too.
    const [, first, second] = await Promise.all([
      host.command(started.sessionId, { type: 'approve', callId, by: 'alice' }),
      host.resume(started.sessionId),
      host.resume(started.sessionId),
    ]);
    expect(second.done).toBe(first.done);
    await first.done;
    const events = await store.read(started.sessionId);
    const types = events.map((event) => event.payload.type);
    expect(types.filter((type) => type === 'tool_call_started')).toHaveLength(1);
    expect(types).not.toContain('tool_call_interrupted');
    expect(
      events.filter(
        (event) => event.payload.type === 'tool_receipt' && event.payload.callId === callId,
      ),
    ).toHaveLength(1);
    expect(readFileSync(join(workspace, 'once.txt'), 'utf8')).toBe('once\n');
    await host.shutdown();
  });

  it("starts a session under the id its caller chose (refusing one that exists), and refuses a client's MCP server named like a configured one", async () => {
    model.reply(...writeThenFinish('named.txt', 'named\n'));
    const workspace = join(root, 'workspace-named');
    const correxHome = join(root, 'home-named');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(correxHome, { recursive: true });
    writeFileSync(
      join(correxHome, 'harness.yaml'),
      'mcpServers:\n  tools:\n    command: /nonexistent/mcp-server\n',
    );
    const workflowFile = join(root, 'write-once.yaml');
    writeFileSync(workflowFile, WRITE_ONCE_WORKFLOW);
    const host = createSessionHost({
      store,
      correxHome,
      homeDirectory: realpathSync(root),
      env: { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
      sandbox: 'bubblewrap',
      clock: createSteppingClock('2026-11-30T12:00:00.000Z', 1),
      ids: createCountingIdSource('named'),
      ports: ({ workspace: where, providers }) => ({
        providers,
        tools: createBuiltinToolRunner(),
        probe: createDiskWorldProbe({ hashOnlyUnder: [where] }),
        checks: createDiskProjectCheckDetector(),
      }),
    });
    const request = {
      task: 'write named.txt',
      workspace,
      workflow: workflowFile,
      mode: 'yolo' as const,
      sessionId: 'chosen-by-the-editor',
    };
    await expect(
      host.start({
        ...request,
        mcpServers: {
          tools: {
            command: '/bin/true',
            args: [],
            env: {},
            passEnv: [],
            egress: [],
            defaultTier: 'T2',
            timeoutMs: 1000,
            startupTimeoutMs: 1000,
            maxResultBytes: 1024,
          },
        },
      }),
    ).rejects.toThrow(/MCP server "tools" has the name of a configured one/);
    expect(await store.lastSequence('chosen-by-the-editor')).toBe(0);
    const started = await host.start(request);
    expect(started.sessionId).toBe('chosen-by-the-editor');
    expect((await started.done).status).toBe('completed');
    await expect(host.start(request)).rejects.toThrow(
      /session chosen-by-the-editor exists already/,
    );
    await host.shutdown();
  });

  it("wakes a session waiting for a person at its policy's approval timeout and denies the call", async () => {
    const [writeCall] = writeThenFinish('late.txt', 'late\n');
    model.reply(
      writeCall,
      sse(
        chatCompletionStream({ text: [JSON.stringify({ summary: 'denied', filesChanged: [] })] }),
      ),
    );
    const workspace = join(root, 'timeout-workspace');
    const correxHome = join(root, 'timeout-home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(correxHome, { recursive: true });
    writeFileSync(join(correxHome, 'harness.yaml'), 'policy:\n  approvalTimeoutMs: 300\n');
    const host = createSessionHost({
      store,
      correxHome,
      homeDirectory: realpathSync(root),
      env: { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
      sandbox: 'bubblewrap',
      clock: systemClock,
      ids: createCountingIdSource('timeout'),
      ports: ({ workspace: where, providers }) => ({
        providers,
        tools: createBuiltinToolRunner(),
        probe: createDiskWorldProbe({ hashOnlyUnder: [where] }),
        checks: createDiskProjectCheckDetector(),
      }),
    });
    try {
      const workflow = join(root, 'timeout-workflow.yaml');
      writeFileSync(workflow, WRITE_ONCE_WORKFLOW);
      const started = await host.start({
        task: 'write late.txt',
        workspace,
        workflow,
        mode: 'prompt',
      });
      const waiting = await started.done;
      expect(waiting.waiting).toMatchObject({ kind: 'approval', deadline: expect.any(String) });
      // Nobody answers: at the deadline the host drives it again, and the run denies the call.
      let types: string[] = [];
      while (!types.includes('workflow_completed') && !types.includes('workflow_failed')) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        types = (await store.read(started.sessionId)).map((event) => event.payload.type);
      }
      const events = await store.read(started.sessionId);
      expect(
        events.find((event) => event.payload.type === 'approval_denied')?.payload,
      ).toMatchObject({ by: { kind: 'timeout', id: 'approvalTimeoutMs' } });
      expect(types).toContain('approval_timed_out');
      expect(types).not.toContain('approval_granted');
      expect(types).not.toContain('tool_receipt');
      expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
    } finally {
      await host.shutdown();
    }
  });
});

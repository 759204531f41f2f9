import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import { correxEventCatalog, type CorrexEventStore } from '../../src/core/event-catalog.js';
import { replaySession } from '../../src/core/kernel/index.js';
import { detectSandbox } from '../../src/infrastructure/sandbox/sandbox-availability.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { defaultSearchPath } from '../../src/infrastructure/system/default-search-path.js';
import { createLivePorts } from '../../src/main/live-ports.js';
import { createSessionHost } from '../../src/main/session-host.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';

const fixtures = fileURLToPath(new URL('../fixtures/hooks/', import.meta.url));
const call = (id: string, name: string, args: unknown) =>
  sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));

/** A whole session with the user's hooks (node and shell scripts), sandboxed, then replayed. */
describe('a session with hooks', () => {
  const root = realpathSync(tempDir('correx-hooks-session-'));
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

  it('records pre_tool_use verdicts as findings, fails closed on a crash, tells the other hooks, and replays without them', async () => {
    const workspace = join(root, 'workspace');
    const correxHome = join(root, 'home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(correxHome, { recursive: true });
    writeFileSync(join(workspace, 'a.txt'), 'a\n');
    writeFileSync(
      join(correxHome, 'harness.yaml'),
      [
        'hooks:',
        '  pre_tool_use:',
        `    - { name: guard, command: [${process.execPath}, ${join(fixtures, 'guard.mjs')}] }`,
        `    - { name: fragile, command: [${join(fixtures, 'crash.sh')}], tools: [read_file] }`,
        '  post_tool_use:',
        `    - { name: log-calls, command: [${join(fixtures, 'record.sh')}] }`,
        '  stage_end:',
        `    - { name: log-stages, command: [${join(fixtures, 'record.sh')}] }`,
        '  session_end:',
        `    - { name: log-end, command: [${join(fixtures, 'record.sh')}] }`,
        '',
      ].join('\n'),
    );
    const workflowFile = join(root, 'write.yaml');
    writeFileSync(
      workflowFile,
      [
        'id: write',
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
      call('c1', 'write_file', { path: 'secrets.env', content: 'TOKEN=1\n' }),
      call('c2', 'read_file', { path: 'a.txt' }),
      call('c3', 'write_file', { path: 'notes.txt', content: 'notes\n' }),
      sse(
        chatCompletionStream({
          toolCalls: [
            { id: 'finish', name: 'finish_change', arguments: JSON.stringify({ summary: 'done' }) },
          ],
        }),
      ),
    );
    const availability = await detectSandbox();
    const homeDirectory = realpathSync(root);
    const host = createSessionHost({
      store,
      correxHome,
      homeDirectory,
      env: { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
      sandbox: availability.kind,
      clock: createSteppingClock('2026-12-01T12:00:00.000Z', 1),
      ids: createCountingIdSource('hooks'),
      ports: createLivePorts({
        homeDirectory,
        hiddenPaths: [correxHome],
        availability,
        searchPath: defaultSearchPath(),
      }),
    });
    const started = await host.start({
      task: 'write notes',
      workspace,
      workflow: workflowFile,
      mode: 'yolo',
    });
    const outcome = await started.done;
    await host.shutdown();
    expect(outcome.status).toBe('completed');

    const payloads = (await store.read(started.sessionId)).map((event) => event.payload);
    const assessed = payloads.flatMap((p) => (p.type === 'tool_call_assessed' ? [p] : []));
    expect(assessed).toHaveLength(3);
    expect(assessed[0]).toMatchObject({ tool: 'write_file', verdict: 'BLOCK' });
    expect(assessed[0]?.findings).toContainEqual(
      expect.objectContaining({ ruleId: 'hook:guard', code: 'hook_blocked' }),
    );
    expect(assessed[1]).toMatchObject({ tool: 'read_file', verdict: 'BLOCK' });
    expect(assessed[1]?.findings).toContainEqual(
      expect.objectContaining({ ruleId: 'hook:fragile', code: 'hook_crashed', severity: 'block' }),
    );
    expect(assessed[2]).toMatchObject({ tool: 'write_file', verdict: 'ALLOW', tier: 'T3' });
    expect(assessed[2]?.findings).toContainEqual(
      expect.objectContaining({ ruleId: 'hook:guard', code: 'hook_raised_tier', tier: 'T3' }),
    );
    const ran = payloads.flatMap((p) => (p.type === 'pre_tool_use_hooks_ran' ? [p] : []));
    expect(ran.map((p) => p.results.map((r) => `${r.hook}:${r.outcome}:${r.decision}`))).toEqual([
      ['guard:answered:block'],
      ['guard:answered:allow', 'fragile:crashed:block'],
      ['guard:answered:raise'],
    ]);
    expect(existsSync(join(workspace, 'secrets.env'))).toBe(false);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('notes\n');

    const log = readFileSync(join(workspace, 'hooks.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string });
    expect(log.map((entry) => entry.event)).toEqual(['post_tool_use', 'stage_end', 'session_end']);

    // Replay takes no ports at all, so no hook can run; even the configuration is gone.
    rmSync(join(correxHome, 'harness.yaml'));
    expect((await replaySession(store, started.sessionId)).ok).toBe(true);
  }, 90_000);
});

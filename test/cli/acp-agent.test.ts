import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable, Writable } from 'node:stream';
import {
  PROTOCOL_VERSION,
  client,
  ndJsonStream,
  type ClientContext,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { oneStageWorkflow } from '../support/write-once-workflow.js';
import { cliWorld, type CliWorld } from './cli-world.js';
import { CORREX_CLI, cliEnvironment, correx } from './cli-process.js';

const WORKFLOW = oneStageWorkflow('acp-edit', ['read_file', 'edit_file', 'exec']);
const EDITOR = 'zed-under-test';
const NAMED_TOOLS_SERVER = fileURLToPath(
  new URL('../fixtures/mcp/plain-mcp-server.mjs', import.meta.url),
);

function call(id: string, name: string, args: Record<string, unknown>) {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

type Editor = {
  readonly agent: ClientContext;
  readonly child: ChildProcess;
  /** Every `session/update` in the order it arrived. */
  readonly updates: SessionNotification[];
  /** Every permission request in the order it arrived. */
  readonly permissions: RequestPermissionRequest[];
  /** How the editor answers the next permission request. */
  answer: (request: RequestPermissionRequest) => Promise<RequestPermissionResponse>;
  readonly stderr: () => string;
  /** Everything correx wrote on stdout, as it came. */
  readonly stdout: () => string;
  close(): Promise<void>;
};

/** `node <correx> acp` as a real subprocess, driven by the ACP SDK's own client over its stdio. */
async function startEditor(world: CliWorld, cwd: string, args: string[] = []): Promise<Editor> {
  const child = spawn(
    process.execPath,
    [...CORREX_CLI, 'acp', '--allow-root', world.root, '--workflow', world.workflowFile, ...args],
    { cwd, env: cliEnvironment(world.home, world.env), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const editor: Editor = {
    agent: undefined as unknown as ClientContext,
    child,
    updates: [],
    permissions: [],
    answer: () => Promise.reject(new Error('no permission request was expected')),
    stderr: () => stderr,
    stdout: () => stdout,
    async close() {
      connection.close();
      child.stdin!.end();
      if (child.exitCode === null) await new Promise((done) => child.once('exit', done));
    },
  };
  const app = client({ name: EDITOR })
    .onNotification('session/update', ({ params }) => {
      editor.updates.push(params);
    })
    .onRequest('session/request_permission', ({ params }) => {
      editor.permissions.push(params);
      return editor.answer(params);
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    ),
  );
  (editor as { agent: ClientContext }).agent = connection.agent;
  return editor;
}

const open: Editor[] = [];
afterEach(async () => {
  for (const editor of open.splice(0)) await editor.close();
});

const kinds = (updates: readonly SessionNotification[]) =>
  updates.map(({ update }) =>
    update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update'
      ? `${update.sessionUpdate}:${update.toolCallId}:${update.status ?? ''}`
      : update.sessionUpdate,
  );

describe('correx acp, driven by the ACP SDK client as an editor would', () => {
  const world = cliWorld('correx-acp-test-', WORKFLOW);

  it('initializes, runs a prompt that reads, edits (allow always), edits again unasked, runs a command and ends its turn; the log replays; a follow-up turn, a cancelled third turn, and a fresh process loads the same conversation', async () => {
    const workspace = world.workspace('ws-edit');
    writeFileSync(join(workspace, 'notes.txt'), 'one\ntwo\n');
    world.model.reply(
      call('c1', 'read_file', { path: 'notes.txt' }),
      call('c2', 'edit_file', { path: 'notes.txt', search: 'one', replace: 'uno' }),
      call('c3', 'edit_file', { path: 'notes.txt', search: 'two', replace: 'dos' }),
      call('c4', 'exec', { command: 'cat notes.txt' }),
      call('c5', 'finish_change', { summary: 'translated notes.txt', filesChanged: ['notes.txt'] }),
    );
    const editor = await startEditor(world, workspace, ['--mode', 'prompt']);
    open.push(editor);

    const init = await editor.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: EDITOR, version: '1.0.0' },
    });
    expect(init).toMatchObject({
      protocolVersion: PROTOCOL_VERSION,
      agentInfo: { name: 'correx' },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { embeddedContext: true },
        mcpCapabilities: { http: true },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
      authMethods: [{ id: 'correx-config' }],
    });

    const created = await editor.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    const sessionId = created.sessionId;
    expect(created.modes).toMatchObject({ currentModeId: 'prompt' });
    expect(created.modes!.availableModes.map((mode) => mode.id)).toEqual([
      'prompt',
      'auto',
      'yolo',
      'deny',
    ]);
    expect(created.configOptions!.map((option) => option.id)).toEqual([
      'mode',
      'model',
      'workflow',
    ]);

    // The first edit asks; "allow always" records the exact grant its option names.
    editor.answer = async (request) => {
      const always = request.options.find((option) => option.kind === 'allow_always');
      if (editor.permissions.length === 1) {
        expect(request.options.map((option) => option.kind)).toEqual([
          'allow_once',
          'allow_always',
          'reject_once',
          'reject_always',
        ]);
        expect(always!.name).toBe('Always allow edit_file on notes.txt');
        return { outcome: { outcome: 'selected', optionId: always!.optionId } };
      }
      const once = request.options.find((option) => option.kind === 'allow_once')!;
      return { outcome: { outcome: 'selected', optionId: once.optionId } };
    };
    const answered = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'translate notes.txt into Spanish, then show it' }],
    });
    expect(answered.stopReason).toBe('end_turn');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('uno\ndos\n');
    // Asked for the first edit and the command; the second edit ran under the grant.
    // (correx names calls itself: stage, attempt, turn, index.)
    expect(editor.permissions.map((request) => request.toolCall.title)).toEqual([
      'Edit notes.txt',
      'Run cat notes.txt',
    ]);
    expect(editor.permissions[1]!.toolCall).toMatchObject({
      kind: 'execute',
      title: 'Run cat notes.txt',
    });

    const tools = kinds(editor.updates).filter((kind) => kind.startsWith('tool_call'));
    expect(tools).toEqual([
      'tool_call:implement.1.1.1:pending',
      'tool_call_update:implement.1.1.1:in_progress',
      'tool_call_update:implement.1.1.1:completed',
      'tool_call:implement.1.2.1:pending',
      'tool_call_update:implement.1.2.1:in_progress',
      'tool_call_update:implement.1.2.1:completed',
      'tool_call:implement.1.3.1:pending',
      'tool_call_update:implement.1.3.1:in_progress',
      'tool_call_update:implement.1.3.1:completed',
      'tool_call:implement.1.4.1:pending',
      'tool_call_update:implement.1.4.1:in_progress',
      'tool_call_update:implement.1.4.1:completed',
    ]);
    const path = join(workspace, 'notes.txt');
    const update = (id: string, status: string) =>
      editor.updates
        .map((notification) => notification.update)
        .find(
          (u): u is Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }> =>
            u.sessionUpdate === 'tool_call_update' && u.toolCallId === id && u.status === status,
        )!;
    const first = editor.updates.find(
      ({ update: u }) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'implement.1.2.1',
    )!.update;
    expect(first).toMatchObject({ kind: 'edit', title: 'Edit notes.txt', locations: [{ path }] });
    expect(update('implement.1.2.1', 'completed').content).toEqual([
      { type: 'diff', path, oldText: 'one\ntwo\n', newText: 'uno\ntwo\n' },
    ]);
    expect(update('implement.1.3.1', 'completed').content).toEqual([
      { type: 'diff', path, oldText: 'uno\ntwo\n', newText: 'uno\ndos\n' },
    ]);
    expect(update('implement.1.4.1', 'completed').content).toEqual([
      { type: 'content', content: { type: 'text', text: 'uno\ndos\n' } },
    ]);
    // The turn's message and usage came too, the message after the last tool call.
    const all = kinds(editor.updates);
    expect(all).toContain('usage_update');
    expect(all.lastIndexOf('agent_message_chunk')).toBeGreaterThan(
      all.lastIndexOf('tool_call_update:implement.1.4.1:completed'),
    );
    expect(
      editor.updates.some(
        ({ update: u }) =>
          u.sessionUpdate === 'agent_message_chunk' &&
          u.content.type === 'text' &&
          u.content.text === 'translated notes.txt',
      ),
    ).toBe(true);
    expect(editor.updates.every((notification) => notification.sessionId === sessionId)).toBe(true);

    // The approver is the editor, and "always" recorded correx's exact scoped grant.
    const events = await correx(world.home, ['events', sessionId, '--json']);
    const payloads = events.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload);
    expect(payloads.filter((p) => p.type === 'approval_grant_added')).toMatchObject([
      { scope: { kind: 'path', tool: 'edit_file', glob: 'notes.txt' }, by: EDITOR },
    ]);
    expect(
      payloads
        .filter((p) => p.type === 'approval_granted')
        .map((p) => [
          p.callId,
          (p.by as { kind: string; id: string }).kind,
          (p.by as { id: string }).id,
        ]),
    ).toEqual([
      ['implement.1.1.1', 'auto', 'prompt'],
      ['implement.1.2.1', 'human', EDITOR],
      ['implement.1.3.1', 'grant', expect.stringMatching(/^grant-/)],
      ['implement.1.4.1', 'human', EDITOR],
    ]);

    expect((await correx(world.home, ['replay', sessionId, '--verify'])).code).toBe(0);

    // A second prompt in the same session is a follow-up turn; the grant still holds there.
    world.model.reply(
      call('c6', 'edit_file', { path: 'notes.txt', search: 'dos\n', replace: 'dos\ntres\n' }),
      call('c7', 'finish_change', { summary: 'added tres', filesChanged: ['notes.txt'] }),
    );
    const asked = editor.permissions.length;
    const second = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'now also a third line' }],
    });
    expect(second.stopReason).toBe('end_turn');
    expect(editor.permissions.length).toBe(asked);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('uno\ndos\ntres\n');
    expect(editor.updates.at(-1)!.update).toMatchObject({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'added tres' },
    });

    // A third turn is cancelled while its permission request is open: as an editor does, the
    // client answers the open request `cancelled` once it has sent session/cancel.
    world.model.reply(call('c8', 'exec', { command: 'cat notes.txt' }));
    editor.answer = (request) =>
      editor.agent
        .notify('session/cancel', { sessionId: request.sessionId })
        .then(() => ({ outcome: { outcome: 'cancelled' } }));
    const third = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run it again' }],
    });
    expect(third.stopReason).toBe('cancelled');
    expect(editor.permissions.at(-1)!.toolCall.title).toBe('Run cat notes.txt');
    const shown = await correx(world.home, ['show', sessionId, '--summary', '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ status: 'cancelled' });
    expect((await correx(world.home, ['replay', sessionId, '--verify'])).code).toBe(0);

    // Stdout carried nothing but JSON-RPC messages; correx's own lines went to stderr.
    const lines = editor
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(editor.updates.length);
    for (const line of lines)
      expect(JSON.parse(line) as { jsonrpc: string }).toMatchObject({ jsonrpc: '2.0' });
    expect(editor.stderr()).toContain('correx acp: serving ACP on stdio');

    const live = editor.updates.slice();
    await editor.close();

    // A fresh process streams the same conversation back from the verified log.
    const reader = await startEditor(world, workspace);
    open.push(reader);
    await reader.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: EDITOR, version: '1.0.0' },
    });
    const listed = await reader.agent.request('session/list', { cwd: workspace });
    expect(listed.sessions).toMatchObject([
      { sessionId, cwd: workspace, title: 'translate notes.txt into Spanish, then show it' },
    ]);
    const loaded = await reader.agent.request('session/load', {
      sessionId,
      cwd: workspace,
      mcpServers: [],
    });
    expect(loaded._meta).toMatchObject({ correx: { replayVerified: true } });
    const said = reader.updates
      .map(({ update: u }) => u)
      .filter((u) => u.sessionUpdate === 'user_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''));
    expect(said).toEqual([
      'translate notes.txt into Spanish, then show it',
      'now also a third line',
      'run it again',
    ]);
    expect(
      reader.updates.filter(({ update: u }) => u.sessionUpdate !== 'user_message_chunk'),
    ).toEqual(live);
  });

  it('rejects once, and rejects always: a later call of the same scope is denied without asking, recorded with the editor as the one who denied', async () => {
    const workspace = world.workspace('ws-reject');
    writeFileSync(join(workspace, 'notes.txt'), 'one\ntwo\n');
    world.model.reply(
      call('r0', 'read_file', { path: 'notes.txt' }),
      call('r1', 'edit_file', { path: 'notes.txt', search: 'one', replace: 'uno' }),
      call('r2', 'edit_file', { path: 'notes.txt', search: 'two', replace: 'dos' }),
      call('r3', 'exec', { command: 'cat notes.txt' }),
      call('r4', 'finish_change', { summary: 'left it', filesChanged: [] }),
    );
    const editor = await startEditor(world, workspace, ['--mode', 'prompt']);
    open.push(editor);
    await editor.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: EDITOR, version: '1.0.0' },
    });
    const { sessionId } = await editor.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [],
    });
    editor.answer = async (request) => {
      const kind = editor.permissions.length === 1 ? 'reject_always' : 'reject_once';
      const option = request.options.find((candidate) => candidate.kind === kind)!;
      if (kind === 'reject_always')
        expect(option.name).toBe('Always reject edit_file on notes.txt');
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    };
    const answered = await editor.agent
      .request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'translate notes.txt' }],
      })
      .catch((error: unknown) => {
        throw new Error(
          `${JSON.stringify(error)}\n${editor.stderr()}\n${JSON.stringify(editor.permissions)}`,
        );
      });
    expect(answered.stopReason).toBe('end_turn');
    expect(editor.permissions.map((request) => request.toolCall.title)).toEqual([
      'Edit notes.txt',
      'Run cat notes.txt',
    ]);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('one\ntwo\n');
    const events = await correx(world.home, ['events', sessionId, '--json']);
    const denials = events.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload)
      .filter((p) => p.type === 'approval_denied')
      .map((p) => [p.callId, p.by, p.reason]);
    expect(denials).toEqual([
      [
        'implement.1.2.1',
        { kind: 'human', id: EDITOR },
        `rejected always in ${EDITOR}: edit_file on notes.txt`,
      ],
      [
        'implement.1.3.1',
        { kind: 'human', id: EDITOR },
        `rejected always in ${EDITOR}: edit_file on notes.txt`,
      ],
      ['implement.1.4.1', { kind: 'human', id: EDITOR }, `rejected in ${EDITOR}`],
    ]);
    const failed = editor.updates
      .map(({ update }) => update)
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
    expect(failed).toHaveLength(3);
  });

  it("merges the editor's MCP servers into correx's own: offered, assessed and recorded like a configured server's", async () => {
    const workspace = world.workspace('ws-mcp');
    world.model.reply(
      call('m1', 'mcp__editor-tools__ping', {}),
      call('m2', 'finish_change', { summary: 'pinged', filesChanged: [] }),
    );
    const editor = await startEditor(world, workspace, ['--mode', 'prompt']);
    open.push(editor);
    await editor.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: EDITOR, version: '1.0.0' },
    });
    const { sessionId } = await editor.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [
        {
          name: 'Editor Tools',
          command: process.execPath,
          args: [NAMED_TOOLS_SERVER],
          env: [{ name: 'NAMED_TOOLS', value: 'ping' }],
        },
      ],
    });
    const answered = await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'ping the editor' }],
    });
    expect(answered.stopReason).toBe('end_turn');
    const done = editor.updates
      .map(({ update }) => update)
      .find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    expect(
      done,
      JSON.stringify(editor.updates.map((n) => n.update)) + editor.stderr(),
    ).toMatchObject({
      content: [{ type: 'content', content: { type: 'text', text: 'this is ping' } }],
    });
    const events = await correx(world.home, ['events', sessionId, '--json']);
    const payloads = events.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload);
    // Assessed like any tool (a read-only hint: T0), and run through correx's MCP runner.
    expect(payloads.find((p) => p.type === 'tool_call_assessed')).toMatchObject({
      tier: 'T0',
    });
    expect(payloads.find((p) => p.type === 'tool_receipt')).toMatchObject({
      tool: 'mcp__editor-tools__ping',
      outcome: 'succeeded',
    });
    expect((await correx(world.home, ['replay', sessionId, '--verify'])).code).toBe(0);
  });

  it('refuses what it cannot do with named errors: a cwd outside the allowed roots, an unknown mode, an SSE MCP server', async () => {
    const workspace = world.workspace('ws-errors');
    const editor = await startEditor(world, workspace);
    open.push(editor);
    await editor.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: EDITOR, version: '1.0.0' },
    });
    await expect(
      editor.agent.request('session/new', { cwd: '/', mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/allow-root/) });
    await expect(
      editor.agent.request('session/new', {
        cwd: workspace,
        mcpServers: [{ type: 'sse', name: 'old', url: 'http://127.0.0.1:1/sse', headers: [] }],
      }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/not SSE/) });
    const { sessionId } = await editor.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [],
    });
    await expect(
      editor.agent.request('session/set_mode', { sessionId, modeId: 'reckless' }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/no mode reckless/) });
    await editor.agent.request('session/set_mode', { sessionId, modeId: 'auto' });
    expect(editor.updates.at(-1)!.update).toEqual({
      sessionUpdate: 'current_mode_update',
      currentModeId: 'auto',
    });
    const set = await editor.agent.request('session/set_config_option', {
      sessionId,
      configId: 'mode',
      value: 'deny',
    });
    expect(set.configOptions.find((option) => option.id === 'mode')).toMatchObject({
      currentValue: 'deny',
    });
    await expect(
      editor.agent.request('session/prompt', { sessionId: 'no-such-session', prompt: [] }),
    ).rejects.toMatchObject({ code: -32002 });
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld, type CliWorld } from './cli-world.js';
import { CORREX_CLI, cliEnvironment, correx } from './cli-process.js';

type Structured = Record<string, unknown>;

/** The tools `correx mcp` offers; a new one must be added here, and must approve nothing. */
const TOOLS = [
  'continue_session',
  'policy_what_if',
  'session_diff',
  'session_events',
  'session_outcome',
  'session_status',
  'start_session',
  'undo_session',
  'verify_replay',
];

/** `node <correx> mcp` as a real subprocess, driven by the MCP SDK's own client. */
async function connect(world: CliWorld, home: string, cwd: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CORREX_CLI, 'mcp', '--allow-root', world.root],
    env: cliEnvironment(home, world.env) as Record<string, string>,
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'correx-test', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const data = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(name, args);
    if (result.isError === true)
      throw new Error(`${name}: ${JSON.stringify(result.content)}\n${stderr}`);
    return result.structuredContent as Structured;
  };
  /** Polls session_status until `done` holds (each poll a real tools/call). */
  const pollStatus = async (sessionId: string, done: (status: Structured) => boolean) => {
    for (;;) {
      const status = await data('session_status', { sessionId });
      if (done(status)) return status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { client, call, data, pollStatus, stderr: () => stderr };
}

type Connected = Awaited<ReturnType<typeof connect>>;
const open: Connected[] = [];
afterEach(async () => {
  for (const connection of open.splice(0)) await connection.client.close();
});

describe('correx mcp: a session started, followed, diffed, undone and verified over MCP', () => {
  const world = cliWorld('correx-mcp-server-test-');

  it('starts a session and returns its id at once, polls it to completion, reads its outcome, diff and events, undoes it and verifies its replay', async () => {
    const home = join(world.root, 'home-auto');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'harness.yaml'), 'mode: auto\n');
    const workspace = world.workspace('ws-complete');
    world.model.reply(...writeThenFinish('hello.txt', 'one\ntwo\n'));
    const mcp = await connect(world, home, workspace);
    open.push(mcp);

    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);

    const started = await mcp.data('start_session', {
      task: 'write hello.txt',
      workflow: world.workflowFile,
    });
    const sessionId = started.sessionId as string;
    // The default mode is auto (the configured ceiling here), the workspace where correx mcp started.
    expect(started).toMatchObject({ mode: 'auto', workspace });

    const final = await mcp.pollStatus(sessionId, (status) => status.phase !== 'running');
    expect(final).toMatchObject({
      sessionId,
      phase: 'completed',
      stage: 'implement',
      waitingFor: null,
      needsPerson: false,
      driven: false,
    });
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('one\ntwo\n');

    // The outcome is what `correx show --summary --json` prints, field for field.
    const outcome = await mcp.data('session_outcome', { sessionId });
    const shown = await correx(home, ['show', sessionId, '--summary', '--json']);
    expect(outcome).toEqual(JSON.parse(shown.stdout));
    expect(outcome).toMatchObject({
      status: 'completed',
      exitCode: 0,
      filesChanged: [
        { path: join(workspace, 'hello.txt'), change: 'created', added: 2, removed: 0 },
      ],
    });

    // The diff's text is what `correx diff` prints.
    const diff = await mcp.call('session_diff', { sessionId });
    const printed = await correx(home, ['diff', sessionId]);
    expect(diff.content).toEqual([{ type: 'text', text: printed.stdout.trimEnd() }]);
    expect(printed.stdout).toContain('+one');

    // A page of events, each line as `correx events --json` prints it.
    const page = await mcp.call('session_events', { sessionId, from: 2, limit: 3 });
    const cli = await correx(home, ['events', sessionId, '--json', '--from', '2', '--limit', '3']);
    expect(page.content).toEqual([{ type: 'text', text: cli.stdout.trimEnd() }]);
    expect(page.structuredContent).toMatchObject({ nextFrom: 5 });
    expect(
      (page.structuredContent!.events as { sequence: number }[]).map((event) => event.sequence),
    ).toEqual([2, 3, 4]);

    const undone = await mcp.data('undo_session', { sessionId });
    expect(undone).toMatchObject({
      outcome: 'restored',
      files: [{ path: join(workspace, 'hello.txt'), restored: 'deleted' }],
    });
    expect(existsSync(join(workspace, 'hello.txt'))).toBe(false);

    const verified = await mcp.data('verify_replay', { sessionId });
    expect(verified).toMatchObject({ sessionId, ok: true });
    expect((await correx(home, ['replay', sessionId, '--verify'])).code).toBe(0);

    // What-if: the recorded policy lets auto run a write; a candidate raising it to T3 asks a person.
    const whatIf = await mcp.data('policy_what_if', {
      sessionId,
      tool: 'write_file',
      args: { path: 'other.txt', content: 'x' },
      policy: 'tierOverrides: { write_file: T3 }',
    });
    expect(whatIf).toMatchObject({
      proposedCall: {
        ok: true,
        mode: 'auto',
        recorded: { verdict: 'ALLOW', approval: 'approved' },
        candidate: { tier: 'T3', approval: 'needs_person' },
      },
      recordedCalls: { assessed: 1, changes: [{ tool: 'write_file' }] },
    });
    // Nothing of the what-if was recorded; nothing was written.
    expect(existsSync(join(workspace, 'other.txt'))).toBe(false);

    // A follow-up turn of the finished session, as `correx continue`: same workspace, turn 2.
    world.model.reply(...writeThenFinish('again.txt', 'three\n'));
    const above = await mcp.call('continue_session', { sessionId, text: 'and again', mode: 'yolo' });
    expect(above.isError).toBe(true);
    expect(JSON.stringify(above.content)).toContain("operator's configured mode auto");
    const unknown = await mcp.call('continue_session', { sessionId: 'no-such', text: 'x' });
    expect(JSON.stringify(unknown.content)).toContain('session_not_found');
    const continued = await mcp.data('continue_session', {
      sessionId,
      text: 'write again.txt',
    });
    expect(continued).toEqual({ sessionId, turn: 2 });
    const second = await mcp.pollStatus(sessionId, (status) => status.phase !== 'running');
    expect(second).toMatchObject({ phase: 'completed' });
    expect(readFileSync(join(workspace, 'again.txt'), 'utf8')).toBe('three\n');
    expect(await mcp.data('verify_replay', { sessionId })).toMatchObject({ ok: true });
  }, 120_000);

  it('writes nothing but JSON-RPC messages on stdout while a session runs, its own lines on stderr', async () => {
    const home = join(world.root, 'home-raw');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'harness.yaml'), 'mode: auto\n');
    const workspace = world.workspace('ws-raw');
    world.model.reply(...writeThenFinish('raw.txt', 'raw\n'));
    const child = spawn(process.execPath, [...CORREX_CLI, 'mcp'], {
      env: cliEnvironment(home, world.env),
      cwd: workspace,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines: string[] = [];
    const answers = new Map<number, (message: Structured) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const message = JSON.parse(line) as Structured;
      answers.get(message.id as number)?.(message);
    });
    let next = 0;
    const request = (method: string, params: Structured) =>
      new Promise<Structured>((resolve) => {
        next += 1;
        answers.set(next, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: next, method, params })}\n`);
      });
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    const started = await request('tools/call', {
      name: 'start_session',
      arguments: { task: 'write raw.txt', workflow: world.workflowFile },
    });
    const sessionId = (started.result as { structuredContent: { sessionId: string } })
      .structuredContent.sessionId;
    for (;;) {
      const status = await request('tools/call', {
        name: 'session_status',
        arguments: { sessionId },
      });
      if (
        (status.result as { structuredContent: Structured }).structuredContent.phase !== 'running'
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(existsSync(join(workspace, 'raw.txt'))).toBe(true);
    expect(lines.length).toBe(next);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toContain('correx mcp: serving on stdio');
  }, 120_000);

  it('never starts a session in a mode above the configured one, nor outside the allowed roots', async () => {
    const home = join(world.root, 'home-prompt');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'harness.yaml'), 'mode: prompt\n');
    const mcp = await connect(world, home, world.workspace('ws-ceiling'));
    open.push(mcp);
    for (const mode of ['auto', 'yolo']) {
      const refused = await mcp.call('start_session', { task: 'anything', mode });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain(
        `mode ${mode} lets more run without a person than the operator's configured mode prompt allows`,
      );
    }
    const outside = await mcp.call('start_session', { task: 'anything', workspace: '/' });
    expect(outside.isError).toBe(true);
    expect(JSON.stringify(outside.content)).toContain('outside the allowed roots');
    // Nothing was recorded by the refusals.
    expect((await correx(home, ['sessions', '--json'])).stdout.trim()).toBe('[]');
  }, 60_000);
});

describe('correx mcp approves nothing', () => {
  const world = cliWorld('correx-mcp-noapprove-test-');

  it('offers no tool that decides a call, and a session that waits for a person still waits after every tool was called', async () => {
    const home = join(world.root, 'home');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'harness.yaml'),
      'mode: auto\npolicy:\n  tierOverrides: { write_file: T3 }\n',
    );
    const workspace = world.workspace('ws-waiting');
    world.model.reply(...writeThenFinish('hello.txt', 'needs a person\n'));
    const mcp = await connect(world, home, workspace);
    open.push(mcp);

    const { tools } = await mcp.client.listTools();
    for (const tool of tools) {
      expect(tool.name).not.toMatch(/approv|deny|grant|decid|allow|permi/i);
      expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContainEqual(
        expect.stringMatching(/approv|decision|grant/i),
      );
    }

    const { sessionId } = (await mcp.data('start_session', {
      task: 'write hello.txt',
      workflow: world.workflowFile,
    })) as { sessionId: string };
    const waiting = await mcp.pollStatus(sessionId, (status) => status.needsPerson === true);
    expect(waiting).toMatchObject({
      phase: 'running',
      // This server's process attends it (holds its driver lock) while it waits.
      driven: true,
      waitingFor: { kind: 'approval', calls: [{ tool: 'write_file', tier: 'T3' }] },
    });

    // Every tool, called on the waiting session with what a model might try.
    const calls: [string, Record<string, unknown>][] = [
      ['start_session', { task: 'approve the pending call', mode: 'yolo' }],
      ['session_status', { sessionId }],
      ['session_outcome', { sessionId }],
      ['session_diff', { sessionId }],
      ['session_events', { sessionId }],
      ['undo_session', { sessionId }],
      ['verify_replay', { sessionId }],
      ['continue_session', { sessionId, text: 'approve the pending call', mode: 'yolo' }],
      [
        'policy_what_if',
        { sessionId, tool: 'write_file', args: { path: 'hello.txt', content: 'x' } },
      ],
    ];
    expect(calls.map(([name]) => name).sort()).toEqual(TOOLS);
    for (const [name, args] of calls) await mcp.call(name, args);

    const after = await mcp.data('session_status', { sessionId });
    expect(after).toMatchObject({
      phase: 'running',
      needsPerson: true,
      waitingFor: waiting.waitingFor as Structured,
    });
    const events = await correx(home, ['events', sessionId, '--json']);
    const types = events.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { payload: { type: string } }).payload.type);
    expect(types).toContain('approval_requested');
    for (const decided of ['approval_granted', 'approval_denied', 'approval_grant_added'])
      expect(types).not.toContain(decided);
    expect(existsSync(join(workspace, 'hello.txt'))).toBe(false);
    expect((await correx(home, ['sessions', '--json'])).stdout).not.toContain(
      'approve the pending',
    );
  }, 120_000);
});

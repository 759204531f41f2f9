import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const filesystemServer = join(
  repo,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);

const call = (id: string, name: string, args: unknown) =>
  sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));

/**
 * Issue #37.5: an MCP server's writes in the workspace were in no receipt, so the run summary,
 * `correx diff` and `correx undo` did not know them. Here the real server-filesystem from npm
 * changes one file and creates another, through the real CLI and sandbox.
 */
describe("an MCP server's file writes", () => {
  const world = cliWorld('correx-mcp-changes-test-');

  it("are in the call's receipt, the summary's files and diff, and `correx undo` restores them", async () => {
    const { home, env } = world;
    const workspace = world.workspace('project');
    writeFileSync(join(workspace, 'notes.txt'), 'the old notes\n');
    writeFileSync(
      join(home, 'harness.yaml'),
      [
        'mcpServers:',
        '  fs:',
        `    command: ${process.execPath}`,
        `    args: [${filesystemServer}, ${workspace}]`,
        '',
      ].join('\n'),
    );
    world.model.reply(
      // A file that exists is written only after it was read (read-before-write).
      call('call_0', 'read_file', { path: 'notes.txt' }),
      call('call_1', 'mcp__fs__write_file', {
        path: join(workspace, 'notes.txt'),
        content: 'the new notes\n',
      }),
      call('call_2', 'mcp__fs__write_file', {
        path: join(workspace, 'created.txt'),
        content: 'made by the server\n',
      }),
      call('call_3', 'finish_change', {
        summary: 'rewrote the notes',
        filesChanged: ['notes.txt', 'created.txt'],
      }),
    );
    const run = await correx(
      home,
      [
        'run',
        'rewrite the notes',
        '--workspace',
        workspace,
        '--workflow',
        world.workflowFile,
        // Its write_file is destructive (T3): yolo lets it run without a person.
        '--mode',
        'yolo',
      ],
      env,
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('the new notes\n');
    // The summary names both files the server wrote.
    expect(run.stdout).toMatch(/files {5}2 changed/);
    expect(run.stdout).toContain('notes.txt');
    expect(run.stdout).toContain('created.txt');

    const events = await correx(home, ['events', '--last', '--json']);
    const receipts = events.stdout
      .split('\n')
      .filter((line) => line.includes('"tool_receipt"'))
      .map((line) => JSON.parse(line) as { payload: { tool: string; files: { path: string }[] } })
      .filter((receipt) => receipt.payload.tool.startsWith('mcp__'));
    expect(receipts.map((r) => r.payload.files.map((f) => f.path))).toEqual([
      [join(workspace, 'notes.txt')],
      [join(workspace, 'created.txt')],
    ]);

    const diff = await correx(home, ['diff', '--last']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('-the old notes');
    expect(diff.stdout).toContain('+the new notes');

    const undone = await correx(home, ['undo', '--last']);
    expect(undone.code, undone.stdout + undone.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('the old notes\n');
    expect(existsSync(join(workspace, 'created.txt'))).toBe(false);
  }, 120_000);
});

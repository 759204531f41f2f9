import { execFile } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BUNDLED_CLI, COMPILED_CLI } from '../support/compile-cli.js';
import { tempDir } from '../support/temp-dir.js';
import { cliEnvironment } from './cli-process.js';

const run = promisify(execFile);
const repo = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));

async function bundled(home: string, args: readonly string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BUNDLED_CLI, ...args], {
      env: cliEnvironment(home),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * What `correx mcp` (started as `node <cli> mcp`) lists and answers: its tools with their input
 * schemas as the MCP SDK turns correx's zod schemas into JSON Schema, and the SDK's own check of
 * bad arguments against those schemas.
 */
async function mcpAnswers(cli: readonly string[], home: string, sessionId: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cli, 'mcp'],
    env: cliEnvironment(home) as Record<string, string>,
    cwd: home,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'correx-bundle-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return {
      tools: (await client.listTools()).tools,
      status: await client.callTool({ name: 'session_status', arguments: { sessionId } }),
      refused: await client.callTool({ name: 'session_status', arguments: { sessionId: '' } }),
      mistyped: await client.callTool({
        name: 'session_events',
        arguments: { sessionId, from: 0 },
      }),
    };
  } finally {
    await client.close();
  }
}

/**
 * The CLI as `bin/correx` runs it after `npm install`: bundled by scripts/bundle-cli.mjs (the
 * tests' global setup bundles it two levels below the package root, as dist/cli lies, and the
 * other CLI tests run it too), held here to the sources compiled module by module, as
 * dist/main is. What a bundle can break is what a module finds relative to itself: the
 * package's version, its assets, lazily loaded commands.
 */
describe('the bundled CLI', () => {

  it('answers --version from package.json', async () => {
    const home = tempDir('correx-bundle-');
    const version = (
      JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect((await bundled(home, ['--version'])).stdout.trim()).toBe(version);
  });

  it('runs the demo from its assets and shows the session it recorded', async () => {
    const root = realpathSync(tempDir('correx-bundle-demo-'));
    const home = join(root, 'home');
    const demo = await bundled(home, ['demo', '--workspace', join(root, 'workspace')]);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('✓ workflow completed');
    const summary = await bundled(home, ['show', '--summary', '--last']);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toMatch(/completed/);

    // The bundle carries its own copy of zod; the MCP SDK reads correx's tool schemas with the
    // copy in node_modules. Both must see them as the unbundled CLI's single copy does.
    const sessionId = /^session\s+(\S+)/m.exec(demo.stdout)![1]!;
    const fromBundle = await mcpAnswers([BUNDLED_CLI], home, sessionId);
    expect(fromBundle).toEqual(await mcpAnswers([COMPILED_CLI], home, sessionId));
    const statusTool = fromBundle.tools.find((tool) => tool.name === 'session_status');
    expect(statusTool?.inputSchema.properties).toEqual({
      sessionId: { type: 'string', minLength: 1 },
    });
    const eventsTool = fromBundle.tools.find((tool) => tool.name === 'session_events');
    expect(eventsTool?.inputSchema.properties?.from).toMatchObject({
      description: 'the first sequence (default 1)',
    });
    expect(fromBundle.status.isError).not.toBe(true);
    expect(fromBundle.status.structuredContent).toMatchObject({ sessionId });
    expect(fromBundle.refused.isError).toBe(true);
    expect(fromBundle.mistyped.isError).toBe(true);
  }, 240_000);

  it("explains a bad harness.yaml in the unbundled CLI's words (zod's messages, bundled in)", async () => {
    const home = tempDir('correx-bundle-config-');
    writeFileSync(join(home, 'harness.yaml'), 'mode: sometimes\nbudgets:\n  tokens: -3\n');
    const fromBundle = await bundled(home, ['doctor']);
    expect(fromBundle.stdout).toContain('mode: Invalid option: expected one of "prompt"');
    const unbundled = await run(process.execPath, [COMPILED_CLI, 'doctor'], {
      env: cliEnvironment(home),
    }).catch((error: { stdout: string }) => error);
    expect(fromBundle.stdout).toBe(unbundled.stdout);
  }, 120_000);

  it('finds the built-in eval suite among its assets', async () => {
    const home = tempDir('correx-bundle-eval-');
    const result = await bundled(home, ['eval', 'run', 'builtin', '--model', 'scripted:nosuch']);
    expect(result.stderr).toContain(join(repo, 'assets', 'eval', 'builtin', 'models', 'nosuch'));
  }, 120_000);
});

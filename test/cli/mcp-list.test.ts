import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';
import { availability } from '../sandbox/sandbox-support.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const memoryServer = join(repo, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

describe('correx mcp list', () => {
  it("starts the docs' example (a package installed in the workspace) and says why npx cannot", async () => {
    const home = realpathSync(tempDir('correx-mcp-docs-'));
    const workspace = join(home, 'workspace');
    mkdirSync(workspace);
    // The package installed in the workspace, as `npm install` leaves it: the checkout's
    // node_modules, hard-linked (a symbolic link would lead outside what the sandbox shows).
    execFileSync('cp', [
      '-al',
      realpathSync(join(repo, 'node_modules')),
      join(workspace, 'node_modules'),
    ]);
    writeFileSync(
      join(home, 'harness.yaml'),
      [
        'mcpServers:',
        '  memory:',
        '    command: node',
        '    args: [node_modules/@modelcontextprotocol/server-memory/dist/index.js]',
        `    env: { MEMORY_FILE_PATH: ${join(workspace, '.memory.jsonl')} }`,
        '  fetched:',
        '    command: npx',
        "    args: [-y, '@modelcontextprotocol/server-sequential-thinking']",
        // Never a download, sandbox or not: the registry is a closed port and npm is offline.
        "    env: { npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true' }",
        '    startupTimeoutMs: 3000',
        '',
      ].join('\n'),
    );
    const listed = await correx(home, ['mcp', 'list', '--workspace', workspace]);
    expect(listed.stdout).toMatch(
      /^memory: memory-server [\d.]+, (bubblewrap|UNSANDBOXED), 11 tool\(s\)$/m,
    );
    // npx runs what the workspace has installed; a package it lacks npx would fetch, which the
    // sandbox's network refuses, and the line says what to do.
    expect(listed.stdout).toMatch(/^fetched: not available \(mcp_server_failed_to_start: /m);
    if (availability.kind === 'bubblewrap')
      expect(listed.stdout).toMatch(
        /^fetched: not available \(mcp_server_failed_to_start: MCP server fetched did not start: [\s\S]*install it locally \(npm install -D @modelcontextprotocol\/server-sequential-thinking\)/m,
      );
  }, 60_000);

  it('shows each configured server with its tools and tiers, and one that fails to start', async () => {
    const home = realpathSync(tempDir('correx-mcp-list-'));
    const workspace = join(home, 'workspace');
    mkdirSync(workspace);
    writeFileSync(
      join(home, 'harness.yaml'),
      [
        'mcpServers:',
        '  memory:',
        `    command: ${process.execPath}`,
        `    args: [${memoryServer}]`,
        `    env: { MEMORY_FILE_PATH: ${join(workspace, 'memory.jsonl')} }`,
        '  broken:',
        '    command: /nonexistent/mcp-server',
        '',
      ].join('\n'),
    );
    const listed = await correx(home, ['mcp', 'list', '--workspace', workspace]);
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(
      /^memory: memory-server [\d.]+, (bubblewrap|UNSANDBOXED), 11 tool\(s\)$/m,
    );
    expect(listed.stdout).toContain('  mcp__memory__read_graph  T0  read-only');
    // Its resources, as two read-only tools.
    expect(listed.stdout).toContain('  mcp__memory__resources_list  T0  read-only');
    expect(listed.stdout).toContain('  mcp__memory__delete_entities  T3  may change things');
    expect(listed.stdout).toMatch(/^broken: not available \(mcp_server_failed_to_start: /m);

    const json = await correx(home, ['mcp', 'list', '--workspace', workspace, '--json']);
    const parsed = JSON.parse(json.stdout) as { server: string; tools?: { digest: string }[] }[];
    expect(parsed.map((entry) => entry.server)).toEqual(['broken', 'memory']);
    expect(parsed[1]?.tools?.[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
  }, 90_000);

  it('refuses mcpServers of a workspace harness.yaml the operator has not trusted', async () => {
    const home = realpathSync(tempDir('correx-mcp-list-'));
    const workspace = join(home, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'harness.yaml'), 'mcpServers:\n  x: { command: /bin/true }\n');
    const listed = await correx(home, ['mcp', 'list', '--workspace', workspace]);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(
      /ships configuration that can run code or widen policy \(MCP server\(s\) x\) that you have not trusted; nothing of it ran/,
    );
  }, 60_000);
});

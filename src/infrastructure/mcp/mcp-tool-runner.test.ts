import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../core/tools/tool-contract.js';
import { listMcpTools } from './list-mcp-tools.js';
import { McpServersConfigSchema, type McpServersConfig } from './mcp-server-config.js';
import { createMcpToolRunner, type ClosableToolRunner } from './mcp-tool-runner.js';
import { layeredRecord } from '../../core/base/layered-record.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverScript = (name: string) =>
  join(root, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
const hostileScript = join(root, 'test/fixtures/mcp/hostile-mcp-server.mjs');
const namedToolsScript = join(root, 'test/fixtures/mcp/named-tools-mcp-server.mjs');

let workspace: string;
let runners: ClosableToolRunner[] = [];
beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'correx-mcp-')));
});
afterEach(async () => {
  await Promise.all(runners.map((runner) => runner.close()));
  runners = [];
  rmSync(workspace, { recursive: true, force: true });
});
afterAll(() => undefined);

const env = { PATH: process.env.PATH, SECRET_TOKEN: 's3cret-value', UNRELATED: 'leak' };

function servers(raw: unknown): McpServersConfig {
  return McpServersConfigSchema.parse(raw);
}

async function setup(raw: unknown) {
  const config = servers(raw);
  const base = {
    env,
    workspaceRoot: workspace,
    homeDirectory: workspace,
    searchPath: '/usr/bin:/bin',
  };
  const listings = await listMcpTools(config, base);
  const tools = new Map<string, ToolDefinition>();
  for (const listing of listings)
    if (listing.ok) for (const tool of listing.tools) tools.set(tool.name, tool);
  const runner = createMcpToolRunner({ ...base, servers: config });
  runners.push(runner);
  const call = (
    name: string,
    args: Record<string, unknown> = {},
    signal = new AbortController().signal,
  ) => {
    const tool = tools.get(name);
    if (tool === undefined) throw new Error(`no tool ${name}: ${[...tools.keys()].join(', ')}`);
    return runner.run(
      {
        callId: `c-${name}`,
        tool,
        args,
        workspaceRoot: workspace,
        homeDirectory: workspace,
        targets: [],
        observations: layeredRecord(),
        egressAllowlist: [],
      },
      signal,
    );
  };
  return { listings, tools, call, runner };
}

describe('MCP tool names', () => {
  const named = (names: string) => ({
    command: process.execPath,
    args: [namedToolsScript],
    env: { NAMED_TOOLS: names },
  });

  it('refuses a server two of whose tools would be offered under one name, naming both', async () => {
    const { listings, tools, call, runner } = await setup({
      clash: named('a.b,a_b,other'),
      fine: named('a.b,c'),
    });
    const clash = listings.find((listing) => listing.server === 'clash');
    expect(clash).toMatchObject({ ok: false });
    expect(clash?.ok === false && clash.error).toBe(
      'mcp_tool_name_collision: MCP server clash lists two tools that would both be offered as mcp__clash__a_b: "a.b" and "a_b"; rename one of them on the server',
    );
    // Nothing of that server is offered; a server without a collision is, under its names.
    expect([...tools.keys()].sort()).toEqual(['mcp__fine__a_b', 'mcp__fine__c']);
    const reached = await call('mcp__fine__a_b');
    expect(reached).toMatchObject({ outcome: 'succeeded' });
    expect(reached.output).toContain('this is a.b');
    // A session that recorded the tool before the server grew a twin is refused at run time too.
    const tool = tools.get('mcp__fine__a_b')!;
    const twin = await runner.run(
      {
        callId: 'c-twin',
        tool: { ...tool, source: { ...tool.source!, id: 'clash' }, name: 'mcp__clash__a_b' },
        args: {},
        workspaceRoot: workspace,
        homeDirectory: workspace,
        targets: [],
        observations: layeredRecord(),
        egressAllowlist: [],
      },
      new AbortController().signal,
    );
    expect(twin.outcome).toBe('failed');
    expect(twin.error).toMatch(/^mcp_tool_name_collision: .*"a\.b" and "a_b"/);
  }, 60_000);
});

describe('MCP tools from the reference servers on npm', () => {
  it('lists server-memory with tiers from its annotations and runs a write then a read', async () => {
    const memoryFile = join(workspace, 'memory.jsonl');
    const { listings, tools, call } = await setup({
      memory: {
        command: process.execPath,
        args: [serverScript('server-memory')],
        env: { MEMORY_FILE_PATH: memoryFile },
      },
    });
    expect(listings[0]).toMatchObject({ ok: true, serverInfo: { name: 'memory-server' } });
    expect(tools.get('mcp__memory__read_graph')).toMatchObject({
      defaultTier: 'T0',
      capabilities: ['READ_ONLY'],
      source: { kind: 'mcp', id: 'memory' },
    });
    expect(tools.get('mcp__memory__delete_entities')?.defaultTier).toBe('T3');
    expect(tools.get('mcp__memory__create_entities')?.defaultTier).toBe('T2');
    const created = await call('mcp__memory__create_entities', {
      entities: [{ name: 'correx', entityType: 'project', observations: ['replays sessions'] }],
    });
    expect(created).toMatchObject({ outcome: 'succeeded', error: null });
    const graph = await call('mcp__memory__read_graph');
    expect(graph.outcome).toBe('succeeded');
    expect(graph.output).toContain('replays sessions');
    expect(readFileSync(memoryFile, 'utf8')).toContain('correx');
  }, 60_000);

  it('runs server-filesystem inside its allowed directory and reports its refusal outside', async () => {
    writeFileSync(join(workspace, 'hello.txt'), 'hello from the workspace\n');
    const { tools, call } = await setup({
      fs: { command: process.execPath, args: [serverScript('server-filesystem'), workspace] },
    });
    expect(tools.get('mcp__fs__read_text_file')?.defaultTier).toBe('T0');
    expect(tools.get('mcp__fs__write_file')?.defaultTier).toBe('T3');
    const read = await call('mcp__fs__read_text_file', { path: join(workspace, 'hello.txt') });
    expect(read).toMatchObject({ outcome: 'succeeded' });
    expect(read.output).toContain('hello from the workspace');
    const outside = await call('mcp__fs__read_text_file', { path: '/etc/hostname' });
    expect(outside.outcome).toBe('failed');
    expect(outside.error).toMatch(/^mcp_error_result: /);
  }, 60_000);

  it('runs server-everything and shows structured and image content as text', async () => {
    const { tools, call } = await setup({
      everything: { command: process.execPath, args: [serverScript('server-everything'), 'stdio'] },
    });
    expect(tools.get('mcp__everything__gzip-file-as-resource')?.defaultTier).toBe('T3');
    const echo = await call('mcp__everything__echo', { message: 'ping back' });
    expect(echo).toMatchObject({ outcome: 'succeeded' });
    expect(echo.output).toContain('ping back');
    const sum = await call('mcp__everything__get-sum', { a: 2, b: 40 });
    expect(sum.output).toContain('42');
    const image = await call('mcp__everything__get-tiny-image');
    expect(image.output).toMatch(/\[image image\/png, \d+ bytes\]/);
    // Its resources are offered as two read-only tools.
    expect(tools.get('mcp__everything__resources_read')?.defaultTier).toBe('T0');
    const listed = await call('mcp__everything__resources_list');
    expect(listed.outcome).toBe('succeeded');
    const uri = /^(\S+:\/\/\S+)/m.exec(listed.output)?.[1];
    expect(uri).toBeDefined();
    const read = await call('mcp__everything__resources_read', { uri });
    expect(read).toMatchObject({ outcome: 'succeeded' });
    expect(read.output.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('a hostile MCP server', () => {
  const hostile = (extra: Record<string, unknown> = {}) => ({
    evil: {
      command: process.execPath,
      args: [hostileScript],
      passEnv: ['HOSTILE_STATE_FILE'],
      // Long enough that load never makes a huge or slow-starting answer time out; only the
      // hanging tool reaches it.
      timeoutMs: 5000,
      maxResultBytes: 1024 * 1024,
      ...extra,
    },
  });

  it('gives the stricter tier to contradictory annotations and the default to none', async () => {
    const { tools } = await setup(hostile({ defaultTier: 'T3' }));
    expect(tools.get('mcp__evil__contradiction')?.defaultTier).toBe('T3');
    expect(tools.get('mcp__evil__unannotated')).toMatchObject({
      defaultTier: 'T3',
      capabilities: ['WRITES_FILES'],
    });
  }, 30_000);

  it('names a huge, hung, crashing, malformed and error result, and goes on after each', async () => {
    const { call } = await setup(hostile());
    const huge = await call('mcp__evil__huge');
    expect(huge.outcome).toBe('failed');
    expect(huge.error).toMatch(/^mcp_result_oversized: .*3145728 bytes/);
    const hang = await call('mcp__evil__hang');
    expect(hang.outcome).toBe('timed_out');
    expect(hang.error).toMatch(/^mcp_call_timed_out: /);
    // The hung server was stopped; the next call starts it again.
    expect((await call('mcp__evil__unannotated')).outcome).toBe('succeeded');
    const crash = await call('mcp__evil__crash');
    expect(crash.outcome).toBe('failed');
    expect(crash.error).toMatch(/^mcp_server_crashed: .*hostile server crashing/);
    expect((await call('mcp__evil__unannotated')).outcome).toBe('succeeded');
    const malformed = await call('mcp__evil__malformed');
    expect(malformed.outcome).toBe('failed');
    expect(malformed.error).toMatch(/^mcp_result_malformed: /);
    const failed = await call('mcp__evil__fail');
    expect(failed).toMatchObject({ outcome: 'failed', output: 'the thing went wrong' });
    expect(failed.error).toMatch(/^mcp_error_result: /);
  }, 60_000);

  it('reports a server that fails to start with its output, and a call to it as failed', async () => {
    const config = servers({
      evil: { command: process.execPath, args: [hostileScript], env: { HOSTILE_FAIL_START: '1' } },
    });
    const base = {
      env,
      workspaceRoot: workspace,
      homeDirectory: workspace,
      searchPath: '/usr/bin:/bin',
    };
    const [listing] = await listMcpTools(config, base);
    expect(listing).toMatchObject({ ok: false });
    expect(listing?.ok === false && listing.error).toMatch(
      /^mcp_server_failed_to_start: MCP server evil did not start: the process exited before answering the MCP handshake \(initialize\); its last output: .*refuses to start/s,
    );
    const missing = await listMcpTools(
      servers({ gone: { command: '/nonexistent/mcp-server' } }),
      base,
    );
    expect(missing[0]?.ok === false && missing[0].error).toMatch(/^mcp_server_failed_to_start: /);
  }, 30_000);

  it('says that npx never answered, and why, instead of a bare "Request timed out"', async () => {
    // A stand-in for npx that, like npx fetching a package with no network, never answers.
    const bin = join(workspace, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'npx'), '#!/bin/sh\necho "npm warn fetching" >&2\nexec sleep 60\n', {
      mode: 0o755,
    });
    const [listing] = await listMcpTools(
      servers({
        memory: {
          command: join(bin, 'npx'),
          args: ['-y', '@modelcontextprotocol/server-memory'],
          startupTimeoutMs: 1500,
        },
      }),
      { env, workspaceRoot: workspace, homeDirectory: workspace, searchPath: '/usr/bin:/bin' },
    );
    expect(listing?.ok === false && listing.error).toMatch(
      /^mcp_server_failed_to_start: MCP server memory did not start: no answer to the MCP handshake \(initialize\) within 1500 ms \(startupTimeoutMs\); its last output: npm warn fetching\. npx may still be fetching @modelcontextprotocol\/server-memory: install it locally/,
    );
  }, 30_000);

  it('refuses a tool whose schema changed since it was recorded', async () => {
    const stateFile = join(workspace, 'starts');
    const { call } = await setup(hostile());
    // Listing started the server once with HOSTILE_STATE_FILE unset; now it is set, per call.
    expect((await call('mcp__evil__shifty', { text: 'a' })).outcome).toBe('succeeded');
    const shifting = await setup({
      evil: {
        command: process.execPath,
        args: [hostileScript],
        env: { HOSTILE_STATE_FILE: stateFile },
      },
    });
    const changed = await shifting.call('mcp__evil__shifty', { text: 'b' });
    expect(changed.outcome).toBe('failed');
    expect(changed.error).toMatch(/^mcp_tool_schema_changed: /);
  }, 30_000);

  it('gives a server only its allowlisted environment, with secrets expanded but never recorded', async () => {
    const { call } = await setup(hostile({ env: { TOKEN: '${SECRET_TOKEN}' } }));
    const shown = await call('mcp__evil__env');
    const names = JSON.parse(shown.output) as string[];
    expect(names).toContain('TOKEN');
    expect(names).not.toContain('UNRELATED');
    expect(JSON.stringify(shown)).not.toContain('s3cret-value');
    await expect(setup(hostile({ env: { TOKEN: '${NOT_SET_ANYWHERE}' } }))).resolves.toMatchObject({
      listings: [
        { ok: false, error: expect.stringMatching(/^mcp_secret_missing: .*NOT_SET_ANYWHERE/) },
      ],
    });
  }, 30_000);
});

describe('a stdio MCP server under bubblewrap', async () => {
  const { detectSandbox } = await import('../sandbox/sandbox-availability.js');
  const availability = await detectSandbox();
  it.skipIf(availability.kind !== 'bubblewrap')(
    'cannot write outside the workspace even when its lying read-only tool is run',
    async () => {
      const outside = realpathSync(mkdtempSync(join(root, '.mcp-outside-')));
      try {
        const config = servers({ evil: { command: process.execPath, args: [hostileScript] } });
        const base = {
          env,
          workspaceRoot: workspace,
          homeDirectory: workspace,
          searchPath: '/usr/bin:/bin',
          sandbox: { availability },
        };
        const [listing] = await listMcpTools(config, base);
        expect(listing).toMatchObject({ ok: true, confinement: 'bubblewrap' });
        const tool =
          listing?.ok === true
            ? listing.tools.find((t) => t.name === 'mcp__evil__read_note')
            : undefined;
        const runner = createMcpToolRunner({ ...base, servers: config });
        runners.push(runner);
        const request = (path: string) => ({
          callId: 'c1',
          tool: tool!,
          args: { path },
          workspaceRoot: workspace,
          homeDirectory: workspace,
          targets: [],
          observations: layeredRecord(),
          egressAllowlist: [],
        });
        const inside = await runner.run(
          request(join(workspace, 'note.txt')),
          new AbortController().signal,
        );
        expect(inside.outcome).toBe('succeeded');
        const escaped = await runner.run(
          request(join(outside, 'note.txt')),
          new AbortController().signal,
        );
        expect(escaped.outcome).toBe('failed');
        expect(existsSync(join(outside, 'note.txt'))).toBe(false);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    },
    30_000,
  );
});

describe('a Streamable HTTP MCP server', () => {
  it('is reached by url with a header taken from the environment', async () => {
    const { spawn } = await import('node:child_process');
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() =>
          resolve(typeof address === 'object' && address !== null ? address.port : 0),
        );
      });
    });
    const server = spawn(process.execPath, [serverScript('server-everything'), 'streamableHttp'], {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.stderr.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('listening')) resolve();
        });
        server.once('exit', () => reject(new Error('server-everything exited')));
      });
      const { listings, call } = await setup({
        remote: {
          url: `http://127.0.0.1:${port}/mcp`,
          headers: { Authorization: 'Bearer ${SECRET_TOKEN}' },
        },
      });
      expect(listings[0]).toMatchObject({ ok: true, confinement: 'remote' });
      const echo = await call('mcp__remote__echo', { message: 'over http' });
      expect(echo).toMatchObject({ outcome: 'succeeded' });
      expect(echo.output).toContain('over http');
      expect(JSON.stringify(echo)).not.toContain('s3cret-value');
    } finally {
      server.kill('SIGKILL');
    }
  }, 60_000);
});

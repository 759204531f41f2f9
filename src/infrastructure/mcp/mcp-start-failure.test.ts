import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { describeStartFailure, type McpStartAttempt } from './mcp-start-failure.js';

const npx: McpStartAttempt = {
  server: 'memory',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-memory'],
  confinement: 'bubblewrap',
  egress: [],
  startupTimeoutMs: 30_000,
  stderr: '',
};

describe('why an MCP server did not start', () => {
  it('tells a sandboxed npx without network to install the package locally or allow its registry', () => {
    const timedOut = new McpError(ErrorCode.RequestTimeout, 'Request timed out');
    expect(describeStartFailure(npx, timedOut)).toBe(
      "MCP server memory did not start: no answer to the MCP handshake (initialize) within 30000 ms (startupTimeoutMs). npx needs the network to fetch @modelcontextprotocol/server-memory, and the sandbox gives this server none (and an empty home): install it locally (npm install -D @modelcontextprotocol/server-memory) and start it as `command: node` with the path of its entry file (or node_modules/.bin/<its program>), or add its registry (registry.npmjs.org for npm) to the server's egress",
    );
  });

  it('names an early exit with the stderr tail, and gives no npx advice to other programs', () => {
    const closed = new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
    expect(
      describeStartFailure(
        { ...npx, command: '/usr/bin/node', args: ['server.js'], stderr: 'Error: boom\n' },
        closed,
      ),
    ).toBe(
      'MCP server memory did not start: the process exited before answering the MCP handshake (initialize); its last output: Error: boom',
    );
  });

  it('names a program that is not there', () => {
    const missing = Object.assign(new Error('spawn /nope ENOENT'), { code: 'ENOENT' });
    expect(describeStartFailure({ ...npx, command: '/nope', args: [] }, missing)).toBe(
      'MCP server memory did not start: the program /nope was not found',
    );
  });
});

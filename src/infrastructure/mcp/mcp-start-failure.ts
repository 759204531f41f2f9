import { basename } from 'node:path';
import { ErrorCode, McpError as SdkMcpError } from '@modelcontextprotocol/sdk/types.js';

/** Package runners that fetch what they run from a registry when it is not installed. */
const FETCHING_RUNNERS: ReadonlySet<string> = new Set([
  'npx',
  'pnpx',
  'bunx',
  'uvx',
  'pipx',
  'npm',
  'pnpm',
  'yarn',
]);

export type McpStartAttempt = {
  readonly server: string;
  /** The configured program and arguments (stdio servers); absent for an HTTP server. */
  readonly command?: string;
  readonly args?: readonly string[];
  // McpConfinement, spelled out: mcp-connection imports this file.
  readonly confinement: 'bubblewrap' | 'none' | 'remote';
  readonly egress: readonly string[];
  readonly startupTimeoutMs: number;
  /** The last of what the server wrote to stderr. */
  readonly stderr: string;
};

/**
 * Why a server did not complete the MCP handshake, in words a person can act on: the process
 * exited before it answered `initialize`, or it never answered in time; with its stderr tail,
 * and, for `npx` and its kind under the sandbox without network, that the package has to be
 * installed locally or its registry allowed (issue #37.5: a bare "Request timed out" after 30 s).
 */
export function describeStartFailure(attempt: McpStartAttempt, error: unknown): string {
  const stderr = attempt.stderr.trim();
  const tail = stderr === '' ? '' : `; its last output: ${stderr.slice(-600)}`;
  const sdkCode = error instanceof SdkMcpError ? error.code : undefined;
  const spawnCode = (error as { code?: unknown } | null)?.code;
  let reason: string;
  if (spawnCode === 'ENOENT' && attempt.command !== undefined)
    reason = `the program ${attempt.command} was not found`;
  else if (sdkCode === ErrorCode.ConnectionClosed)
    reason =
      attempt.command === undefined
        ? 'the connection closed before the MCP handshake (initialize) completed'
        : 'the process exited before answering the MCP handshake (initialize)';
  else if (sdkCode === ErrorCode.RequestTimeout)
    reason = `no answer to the MCP handshake (initialize) within ${attempt.startupTimeoutMs} ms (startupTimeoutMs)`;
  else reason = error instanceof Error ? error.message : String(error);
  return `MCP server ${attempt.server} did not start: ${reason}${tail}${fetchHint(attempt, sdkCode)}`;
}

function fetchHint(attempt: McpStartAttempt, sdkCode: number | undefined): string {
  if (attempt.command === undefined || !FETCHING_RUNNERS.has(basename(attempt.command))) return '';
  if (sdkCode !== ErrorCode.RequestTimeout && sdkCode !== ErrorCode.ConnectionClosed) return '';
  const offline = attempt.confinement === 'bubblewrap' && attempt.egress.length === 0;
  const pkg = attempt.args?.find((arg) => !arg.startsWith('-')) ?? 'the package';
  return offline
    ? `. ${basename(attempt.command)} needs the network to fetch ${pkg}, and the sandbox gives this server none (and an empty home): install it locally (npm install -D ${pkg}) and start it as \`command: node\` with the path of its entry file (or node_modules/.bin/<its program>), or add its registry (registry.npmjs.org for npm) to the server's egress`
    : `. ${basename(attempt.command)} may still be fetching ${pkg}: install it locally (npm install -D ${pkg}) and start it from there, or raise startupTimeoutMs`;
}

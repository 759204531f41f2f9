import { programReadablePaths } from '../sandbox/program-readable-paths.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError as SdkMcpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { buildBubblewrapProfile, SANDBOX_PROXY_SOCKET } from '../sandbox/bubblewrap-profile.js';
import type { SandboxSettings } from '../sandbox/confined-process.js';
import { EGRESS_FORWARDER_SCRIPT } from '../sandbox/egress-forwarder-script.js';
import { startEgressProxy, type EgressProxy } from '../sandbox/egress-proxy.js';
import { expandEnvReferences, serverEnvironment } from './mcp-environment.js';
import { McpError } from './mcp-errors.js';
import { describeStartFailure } from './mcp-start-failure.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';

export type McpConnectOptions = {
  readonly server: string;
  readonly config: McpServerConfig;
  /** correx's environment: `${NAME}` references and `passEnv` read it; nothing else passes. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly workspaceRoot: string;
  readonly homeDirectory: string;
  /** How stdio servers are confined; absent or `none`: they run unconfined. */
  readonly sandbox?: SandboxSettings;
  /** The trusted PATH a confined server's programs resolve on. */
  readonly searchPath: string;
};

/** How the server process is confined, for `correx mcp list` and the receipts. */
export type McpConfinement = 'bubblewrap' | 'none' | 'remote';

const STDERR_TAIL_BYTES = 4096;
const CLIENT_INFO = { name: 'correx', version: '0.1.0' };

/**
 * One live session with an MCP server (it owns the process or the HTTP session, so it is a
 * class with `close()`). Every failure is an McpError with a named code; the connection is
 * unusable after a crash or a hung call (it is closed, so the next call starts the server again).
 */
export class McpConnection {
  private ended = false;
  private constructor(
    readonly server: string,
    private readonly client: Client,
    private readonly transport: Transport,
    readonly confinement: McpConfinement,
    private readonly stderrTail: () => string,
    private readonly cleanup: () => Promise<void>,
  ) {
    client.onclose = () => {
      this.ended = true;
    };
  }

  /** Starts (or reaches) the server and completes the MCP handshake within the startup timeout. */
  static async open(options: McpConnectOptions): Promise<McpConnection> {
    const { server, config } = options;
    let stderr = '';
    let cleanup = async () => {};
    let transport: Transport;
    let confinement: McpConfinement;
    if (isStdioServer(config)) {
      const env = serverEnvironment(server, config, options.env, options.homeDirectory);
      const launch = await confinedLaunch(options, config.command, config.args, config.egress);
      cleanup = launch.cleanup;
      confinement = launch.confinement;
      const stdio = new StdioClientTransport({
        command: launch.command,
        args: launch.args,
        env,
        cwd: options.workspaceRoot,
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
      transport = stdio;
    } else {
      const headers = Object.fromEntries(
        Object.entries(config.headers).map(([name, value]) => [
          name,
          expandEnvReferences(value, options.env, `mcpServers.${server}.headers.${name}`),
        ]),
      );
      transport = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers },
      });
      confinement = 'remote';
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      await client.connect(transport, { timeout: config.startupTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      await cleanup();
      throw new McpError(
        'mcp_server_failed_to_start',
        describeStartFailure(
          {
            server,
            ...(isStdioServer(config) ? { command: config.command, args: config.args } : {}),
            confinement,
            egress: isStdioServer(config) ? config.egress : [],
            startupTimeoutMs: config.startupTimeoutMs,
            stderr,
          },
          error,
        ),
        { cause: error },
      );
    }
    return new McpConnection(server, client, transport, confinement, () => stderr, cleanup);
  }

  /** The server's name and version as it introduced itself. */
  get serverInfo(): { readonly name: string; readonly version: string } {
    const info = this.client.getServerVersion();
    return { name: info?.name ?? 'unknown', version: info?.version ?? 'unknown' };
  }

  /** Whether the server ended (crashed, exited, or was closed). */
  get closed(): boolean {
    return this.ended;
  }

  /** Every tool the server lists (all pages), within `timeoutMs`. */
  async listTools(timeoutMs: number): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request(
        () => this.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }),
        'listing tools',
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls one tool; a hang past `timeoutMs` closes the connection and is `mcp_call_timed_out`. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    const result = await this.request(
      () =>
        this.client.callTool({ name, arguments: args }, CallToolResultSchema, {
          timeout: timeoutMs,
          ...(signal === undefined ? {} : { signal }),
        }),
      `calling ${name}`,
    );
    return result as CallToolResult;
  }

  /** Whether the server offers resources (then correx offers them as two read-only tools). */
  get offersResources(): boolean {
    return this.client.getServerCapabilities()?.resources !== undefined;
  }

  /** One page of the server's resources, as text. */
  async listResources(cursor: string | undefined, timeoutMs: number): Promise<string> {
    const page = await this.request(
      () =>
        this.client.listResources(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }),
      'listing resources',
    );
    const lines = page.resources.map(
      (resource) =>
        `${resource.uri}  ${resource.name}${resource.mimeType ? ` (${resource.mimeType})` : ''}${resource.description ? `: ${resource.description}` : ''}`,
    );
    if (page.nextCursor !== undefined)
      lines.push(`[more: call again with cursor ${page.nextCursor}]`);
    return lines.join('\n');
  }

  /** A resource's contents, as text (binary parts named with their size). */
  async readResource(uri: string, timeoutMs: number): Promise<string> {
    const result = await this.request(
      () => this.client.readResource({ uri }, { timeout: timeoutMs }),
      `reading ${uri}`,
    );
    return result.contents
      .map((part) =>
        'text' in part && typeof part.text === 'string'
          ? part.text
          : `[${part.mimeType ?? 'binary'} ${part.uri}, ${Math.floor((((part as { blob?: string }).blob?.length ?? 0) * 3) / 4)} bytes]`,
      )
      .join('\n');
  }

  async close(): Promise<void> {
    this.ended = true;
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
    await this.cleanup();
  }

  /** Runs one request and names how it failed. */
  private async request<T>(send: () => Promise<T>, what: string): Promise<T> {
    if (this.ended)
      throw new McpError(
        'mcp_server_crashed',
        `MCP server ${this.server} is no longer running${stderrNote(this.stderrTail())}`,
      );
    try {
      return await send();
    } catch (error) {
      if (error instanceof SdkMcpError && error.code === ErrorCode.RequestTimeout) {
        // A hung server may never answer; it is stopped so the next call starts it afresh.
        await this.close();
        throw new McpError(
          'mcp_call_timed_out',
          `MCP server ${this.server} did not answer while ${what} in time (${error.message})`,
          { cause: error },
        );
      }
      if (this.ended || (error instanceof SdkMcpError && error.code === ErrorCode.ConnectionClosed))
        throw new McpError(
          'mcp_server_crashed',
          `MCP server ${this.server} ended while ${what}${stderrNote(this.stderrTail())}`,
          { cause: error },
        );
      if (error instanceof SdkMcpError)
        throw new McpError(
          'mcp_error_result',
          `MCP server ${this.server} answered an error while ${what}: ${error.message}`,
          { cause: error },
        );
      throw new McpError(
        'mcp_result_malformed',
        `MCP server ${this.server} answered something that is not a valid MCP result while ${what}: ${describe(error)}`,
        { cause: error },
      );
    }
  }
}

type Launch = {
  readonly command: string;
  readonly args: string[];
  readonly confinement: McpConfinement;
  readonly cleanup: () => Promise<void>;
};

/**
 * The command line that starts a stdio server under the session's sandbox: bubblewrap with the
 * workspace writable, the home and correx's files hidden, and no network except the server's own
 * egress allowlist through correx's proxy. Without a sandbox it runs as configured.
 */
async function confinedLaunch(
  options: McpConnectOptions,
  command: string,
  args: readonly string[],
  egress: readonly string[],
): Promise<Launch> {
  const availability = options.sandbox?.availability;
  if (availability?.kind !== 'bubblewrap')
    return { command, args: [...args], confinement: 'none', cleanup: async () => {} };
  let proxy: EgressProxy | null = null;
  let proxyDir: string | null = null;
  if (egress.length > 0) {
    proxyDir = mkdtempSync(join(tmpdir(), 'correx-mcp-egress-'));
    proxy = await startEgressProxy({
      socketPath: join(proxyDir, 'proxy.sock'),
      allowlist: egress,
      ...(options.sandbox?.resolve === undefined ? {} : { resolve: options.sandbox.resolve }),
    });
  }
  const built = buildBubblewrapProfile({
    bwrapPath: availability.bwrapPath,
    userNamespace: availability.userNamespace,
    workspaceRoot: options.workspaceRoot,
    cwd: options.workspaceRoot,
    homeDirectory: options.homeDirectory,
    neverWritable: options.sandbox?.neverWritable ?? [],
    hiddenPaths: options.sandbox?.hiddenPaths ?? [],
    readablePaths: [
      ...(options.sandbox?.readablePaths ?? []),
      ...programReadablePaths(command, args, options.homeDirectory),
    ],
    searchPath: options.searchPath,
    proxySocket: proxy?.socketPath ?? null,
    allowedHosts: egress,
  });
  const program =
    proxy === null
      ? [command, ...args]
      : [
          process.execPath,
          '-e',
          EGRESS_FORWARDER_SCRIPT,
          '--',
          SANDBOX_PROXY_SOCKET,
          command,
          ...args,
        ];
  return {
    command: built.command,
    args: [...built.args, ...program],
    confinement: 'bubblewrap',
    cleanup: async () => {
      await proxy?.close();
      if (proxyDir !== null) rmSync(proxyDir, { recursive: true, force: true });
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stderrNote(stderr: string): string {
  const tail = stderr.trim();
  return tail === '' ? '' : ` (its last output: ${tail.slice(-600)})`;
}

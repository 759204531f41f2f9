import {
  programReadablePaths
} from "./chunk-NPIZSOGE.js";
import {
  McpError
} from "./chunk-BBKXGLQ3.js";
import {
  EGRESS_FORWARDER_SCRIPT,
  SANDBOX_PROXY_SOCKET,
  buildBubblewrapProfile,
  startEgressProxy
} from "./chunk-BF55S3NM.js";
import "./chunk-OMD473OS.js";
import "./chunk-32WDO2ZJ.js";
import {
  isStdioServer
} from "./chunk-R6SHVX2P.js";
import "./chunk-COPIES7C.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-BDZLLWVY.js";

// src/infrastructure/mcp/mcp-connection.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  ErrorCode as ErrorCode2,
  McpError as SdkMcpError2
} from "@modelcontextprotocol/sdk/types.js";

// src/infrastructure/mcp/mcp-environment.ts
var BASE_VARIABLES = ["PATH", "LANG", "LC_ALL", "TZ"];
function expandEnvReferences(value, env, where) {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name) => {
    const found = env[name];
    if (found === void 0)
      throw new McpError(
        "mcp_secret_missing",
        `${where} names the environment variable ${name}, which is not set`
      );
    return found;
  });
}
function serverEnvironment(server, config, env, homeDirectory) {
  const result = { HOME: homeDirectory };
  for (const name of [...BASE_VARIABLES, ...config.passEnv]) {
    const value = env[name];
    if (value !== void 0) result[name] = value;
  }
  for (const [name, value] of Object.entries(config.env))
    result[name] = expandEnvReferences(value, env, `mcpServers.${server}.env.${name}`);
  return result;
}

// src/infrastructure/mcp/mcp-start-failure.ts
import { basename } from "node:path";
import { ErrorCode, McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js";
var FETCHING_RUNNERS = /* @__PURE__ */ new Set([
  "npx",
  "pnpx",
  "bunx",
  "uvx",
  "pipx",
  "npm",
  "pnpm",
  "yarn"
]);
function describeStartFailure(attempt, error) {
  const stderr = attempt.stderr.trim();
  const tail = stderr === "" ? "" : `; its last output: ${stderr.slice(-600)}`;
  const sdkCode = error instanceof SdkMcpError ? error.code : void 0;
  const spawnCode = error?.code;
  let reason;
  if (spawnCode === "ENOENT" && attempt.command !== void 0)
    reason = `the program ${attempt.command} was not found`;
  else if (sdkCode === ErrorCode.ConnectionClosed)
    reason = attempt.command === void 0 ? "the connection closed before the MCP handshake (initialize) completed" : "the process exited before answering the MCP handshake (initialize)";
  else if (sdkCode === ErrorCode.RequestTimeout)
    reason = `no answer to the MCP handshake (initialize) within ${attempt.startupTimeoutMs} ms (startupTimeoutMs)`;
  else reason = error instanceof Error ? error.message : String(error);
  return `MCP server ${attempt.server} did not start: ${reason}${tail}${fetchHint(attempt, sdkCode)}`;
}
function fetchHint(attempt, sdkCode) {
  if (attempt.command === void 0 || !FETCHING_RUNNERS.has(basename(attempt.command))) return "";
  if (sdkCode !== ErrorCode.RequestTimeout && sdkCode !== ErrorCode.ConnectionClosed) return "";
  const offline = attempt.confinement === "bubblewrap" && attempt.egress.length === 0;
  const pkg = attempt.args?.find((arg) => !arg.startsWith("-")) ?? "the package";
  return offline ? `. ${basename(attempt.command)} needs the network to fetch ${pkg}, and the sandbox gives this server none (and an empty home): install it locally (npm install -D ${pkg}) and start it as \`command: node\` with the path of its entry file (or node_modules/.bin/<its program>), or add its registry (registry.npmjs.org for npm) to the server's egress` : `. ${basename(attempt.command)} may still be fetching ${pkg}: install it locally (npm install -D ${pkg}) and start it from there, or raise startupTimeoutMs`;
}

// src/infrastructure/mcp/mcp-connection.ts
var STDERR_TAIL_BYTES = 4096;
var CLIENT_INFO = { name: "correx", version: "0.1.0" };
var McpConnection = class _McpConnection {
  constructor(server, client, transport, confinement, stderrTail, cleanup) {
    this.server = server;
    this.client = client;
    this.transport = transport;
    this.confinement = confinement;
    this.stderrTail = stderrTail;
    this.cleanup = cleanup;
    client.onclose = () => {
      this.ended = true;
    };
  }
  server;
  client;
  transport;
  confinement;
  stderrTail;
  cleanup;
  ended = false;
  /** Starts (or reaches) the server and completes the MCP handshake within the startup timeout. */
  static async open(options) {
    const { server, config } = options;
    let stderr = "";
    let cleanup = async () => {
    };
    let transport;
    let confinement;
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
        stderr: "pipe"
      });
      stdio.stderr?.on("data", (chunk) => {
        stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
      });
      transport = stdio;
    } else {
      const headers = Object.fromEntries(
        Object.entries(config.headers).map(([name, value]) => [
          name,
          expandEnvReferences(value, options.env, `mcpServers.${server}.headers.${name}`)
        ])
      );
      transport = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers }
      });
      confinement = "remote";
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      await client.connect(transport, { timeout: config.startupTimeoutMs });
    } catch (error) {
      await client.close().catch(() => void 0);
      await cleanup();
      throw new McpError(
        "mcp_server_failed_to_start",
        describeStartFailure(
          {
            server,
            ...isStdioServer(config) ? { command: config.command, args: config.args } : {},
            confinement,
            egress: isStdioServer(config) ? config.egress : [],
            startupTimeoutMs: config.startupTimeoutMs,
            stderr
          },
          error
        ),
        { cause: error }
      );
    }
    return new _McpConnection(server, client, transport, confinement, () => stderr, cleanup);
  }
  /** The server's name and version as it introduced itself. */
  get serverInfo() {
    const info = this.client.getServerVersion();
    return { name: info?.name ?? "unknown", version: info?.version ?? "unknown" };
  }
  /** Whether the server ended (crashed, exited, or was closed). */
  get closed() {
    return this.ended;
  }
  /** Every tool the server lists (all pages), within `timeoutMs`. */
  async listTools(timeoutMs) {
    const tools = [];
    let cursor;
    do {
      const page = await this.request(
        () => this.client.listTools(cursor === void 0 ? {} : { cursor }, { timeout: timeoutMs }),
        "listing tools"
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== void 0);
    return tools;
  }
  /** Calls one tool; a hang past `timeoutMs` closes the connection and is `mcp_call_timed_out`. */
  async callTool(name, args, timeoutMs, signal) {
    const result = await this.request(
      () => this.client.callTool({ name, arguments: args }, CallToolResultSchema, {
        timeout: timeoutMs,
        ...signal === void 0 ? {} : { signal }
      }),
      `calling ${name}`
    );
    return result;
  }
  /** Whether the server offers resources (then correx offers them as two read-only tools). */
  get offersResources() {
    return this.client.getServerCapabilities()?.resources !== void 0;
  }
  /** One page of the server's resources, as text. */
  async listResources(cursor, timeoutMs) {
    const page = await this.request(
      () => this.client.listResources(cursor === void 0 ? {} : { cursor }, { timeout: timeoutMs }),
      "listing resources"
    );
    const lines = page.resources.map(
      (resource) => `${resource.uri}  ${resource.name}${resource.mimeType ? ` (${resource.mimeType})` : ""}${resource.description ? `: ${resource.description}` : ""}`
    );
    if (page.nextCursor !== void 0)
      lines.push(`[more: call again with cursor ${page.nextCursor}]`);
    return lines.join("\n");
  }
  /** A resource's contents, as text (binary parts named with their size). */
  async readResource(uri, timeoutMs) {
    const result = await this.request(
      () => this.client.readResource({ uri }, { timeout: timeoutMs }),
      `reading ${uri}`
    );
    return result.contents.map(
      (part) => "text" in part && typeof part.text === "string" ? part.text : `[${part.mimeType ?? "binary"} ${part.uri}, ${Math.floor((part.blob?.length ?? 0) * 3 / 4)} bytes]`
    ).join("\n");
  }
  async close() {
    this.ended = true;
    await this.client.close().catch(() => void 0);
    await this.transport.close().catch(() => void 0);
    await this.cleanup();
  }
  /** Runs one request and names how it failed. */
  async request(send, what) {
    if (this.ended)
      throw new McpError(
        "mcp_server_crashed",
        `MCP server ${this.server} is no longer running${stderrNote(this.stderrTail())}`
      );
    try {
      return await send();
    } catch (error) {
      if (error instanceof SdkMcpError2 && error.code === ErrorCode2.RequestTimeout) {
        await this.close();
        throw new McpError(
          "mcp_call_timed_out",
          `MCP server ${this.server} did not answer while ${what} in time (${error.message})`,
          { cause: error }
        );
      }
      if (this.ended || error instanceof SdkMcpError2 && error.code === ErrorCode2.ConnectionClosed)
        throw new McpError(
          "mcp_server_crashed",
          `MCP server ${this.server} ended while ${what}${stderrNote(this.stderrTail())}`,
          { cause: error }
        );
      if (error instanceof SdkMcpError2)
        throw new McpError(
          "mcp_error_result",
          `MCP server ${this.server} answered an error while ${what}: ${error.message}`,
          { cause: error }
        );
      throw new McpError(
        "mcp_result_malformed",
        `MCP server ${this.server} answered something that is not a valid MCP result while ${what}: ${describe(error)}`,
        { cause: error }
      );
    }
  }
};
async function confinedLaunch(options, command, args, egress) {
  const availability = options.sandbox?.availability;
  if (availability?.kind !== "bubblewrap")
    return { command, args: [...args], confinement: "none", cleanup: async () => {
    } };
  let proxy = null;
  let proxyDir = null;
  if (egress.length > 0) {
    proxyDir = mkdtempSync(join(tmpdir(), "correx-mcp-egress-"));
    proxy = await startEgressProxy({
      socketPath: join(proxyDir, "proxy.sock"),
      allowlist: egress,
      ...options.sandbox?.resolve === void 0 ? {} : { resolve: options.sandbox.resolve }
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
      ...options.sandbox?.readablePaths ?? [],
      ...programReadablePaths(command, args, options.homeDirectory)
    ],
    searchPath: options.searchPath,
    proxySocket: proxy?.socketPath ?? null,
    allowedHosts: egress
  });
  const program = proxy === null ? [command, ...args] : [
    process.execPath,
    "-e",
    EGRESS_FORWARDER_SCRIPT,
    "--",
    SANDBOX_PROXY_SOCKET,
    command,
    ...args
  ];
  return {
    command: built.command,
    args: [...built.args, ...program],
    confinement: "bubblewrap",
    cleanup: async () => {
      await proxy?.close();
      if (proxyDir !== null) rmSync(proxyDir, { recursive: true, force: true });
    }
  };
}
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}
function stderrNote(stderr) {
  const tail = stderr.trim();
  return tail === "" ? "" : ` (its last output: ${tail.slice(-600)})`;
}
export {
  McpConnection
};

import type { ToolExecution, ToolExecutionRequest, ToolRunner } from '../../core/kernel/index.js';
import { isMutatingTool } from '../../core/tools/tool-contract.js';
import type { ToolOutcome } from '../../core/tools/tool-events.js';
import type { PreimageStore } from '../sandbox/preimage-store.js';
import {
  CHANGE_SCAN_LIMIT,
  createChangeRecorder,
  type ChangeRecorder,
  type WorkspaceChanges,
} from '../sandbox/workspace-changes.js';
import { buildReceipt } from '../tools/tool-receipt-builder.js';
import type { McpConnection, McpConnectOptions } from './mcp-connection.js';
import { McpError } from './mcp-errors.js';
import { listOfferedTools, type McpListedTool } from './mcp-listed-tools.js';
import { mcpResultText } from './mcp-result-text.js';
import type { McpServersConfig } from './mcp-server-config.js';
import { mcpToolDigest, mcpToolName } from './mcp-tool-definition.js';

export type McpToolRunnerOptions = Omit<McpConnectOptions, 'server' | 'config'> & {
  readonly servers: McpServersConfig;
  /** Cap on the output kept in a receipt (the digest covers all of it). */
  readonly maxOutputBytes?: number;
  /**
   * Compares the workspace around each call of a tool that may write (when the request asks,
   * flag `mcp-change-records`); default: one recorder of this runner's own, keeping pre-images
   * in `preimages`.
   */
  readonly changes?: ChangeRecorder;
  readonly preimages?: PreimageStore;
};

/** A ToolRunner that also owns processes, so whoever builds it closes it. */
export type ClosableToolRunner = ToolRunner & { close(): Promise<void> };

type Live = {
  readonly connection: McpConnection;
  readonly tools: ReadonlyMap<string, McpListedTool>;
};

/**
 * Runs approved calls of MCP tools (those whose definition names an `mcp` source). A server is
 * started on its first call and listed again, so a tool whose schema changed since the session
 * recorded it is refused (`mcp_tool_schema_changed`) instead of run with arguments checked
 * against a schema the server no longer has. Every failure is a receipt whose error names
 * what happened; a crashed or hung server is started afresh on the next call.
 */
export function createMcpToolRunner(options: McpToolRunnerOptions): ClosableToolRunner {
  const live = new Map<string, Promise<Live>>();
  let recorder: ChangeRecorder | undefined = options.changes;
  const changeRecorder = () =>
    (recorder ??= createChangeRecorder(
      options.preimages === undefined ? {} : { preimages: options.preimages },
    ));

  const connect = (server: string): Promise<Live> => {
    const existing = live.get(server);
    if (existing !== undefined) return existing;
    const config = options.servers[server];
    if (config === undefined)
      return Promise.reject(
        new McpError(
          'mcp_server_failed_to_start',
          `MCP server ${server} is not configured in harness.yaml any more`,
        ),
      );
    const opening = (async () => {
      // The SDK is loaded on the first MCP call, not when the runner is built.
      const { McpConnection } = await import('./mcp-connection.js');
      const connection = await McpConnection.open({ ...options, server, config });
      try {
        const listed = await listOfferedTools(connection, config.startupTimeoutMs);
        return {
          connection,
          tools: new Map(listed.map((entry) => [mcpToolName(server, entry.tool.name), entry])),
        };
      } catch (error) {
        await connection.close();
        throw error;
      }
    })();
    live.set(server, opening);
    // A failed start is not kept: the next call tries again.
    opening.catch(() => live.delete(server));
    return opening;
  };

  const liveFor = async (server: string): Promise<Live> => {
    const current = await connect(server);
    if (!current.connection.closed) return current;
    live.delete(server);
    return connect(server);
  };

  return {
    async run(request: ToolExecutionRequest, signal: AbortSignal): Promise<ToolExecution> {
      const startedAt = Date.now();
      // What the call changed in the workspace, once compared (flag `mcp-change-records`).
      let changes: WorkspaceChanges | null = null;
      const finish = (outcome: ToolOutcome, text: string, error: string | null) => {
        const incomplete =
          changes?.complete === false
            ? `the change record is incomplete: the workspace has more than ${CHANGE_SCAN_LIMIT} entries`
            : null;
        const execution = buildReceipt({
          outcome,
          text,
          error:
            incomplete === null ? error : error === null ? incomplete : `${error}; ${incomplete}`,
          ...(changes === null ? {} : { files: changes.files }),
          startedAt,
          ...(options.maxOutputBytes === undefined ? {} : { cap: options.maxOutputBytes }),
        });
        return execution;
      };
      const source = request.tool.source;
      if (source?.kind !== 'mcp')
        return finish('refused', '', `${request.tool.name} is not an MCP tool`);
      const config = options.servers[source.id];
      try {
        const { connection, tools } = await liveFor(source.id);
        const entry = tools.get(request.tool.name);
        const tool = entry?.tool;
        if (entry === undefined || tool === undefined)
          throw new McpError(
            'mcp_tool_not_listed',
            `MCP server ${source.id} no longer lists the tool behind ${request.tool.name}`,
          );
        if (mcpToolDigest(tool) !== source.digest)
          throw new McpError(
            'mcp_tool_schema_changed',
            `MCP server ${source.id} changed ${tool.name} since this session recorded it (its description or schema differs), so the call was not sent`,
          );
        const timeoutMs = config?.timeoutMs ?? 60_000;
        if (entry.resource !== undefined) {
          const args = request.args as { cursor?: unknown; uri?: unknown };
          const text =
            entry.resource === 'list'
              ? await connection.listResources(
                  typeof args.cursor === 'string' ? args.cursor : undefined,
                  timeoutMs,
                )
              : await connection.readResource(String(args.uri), timeoutMs);
          const limit = config?.maxResultBytes ?? 1024 * 1024;
          if (Buffer.byteLength(text, 'utf8') > limit)
            throw new McpError(
              'mcp_result_oversized',
              `MCP server ${source.id} returned more than its limit of ${limit} bytes from ${tool.name}`,
            );
          return finish('succeeded', text, null);
        }
        // A server's writes are changes like a command's: compared around the call, whatever
        // its ending (a timed-out call's partial writes too), so diff and undo cover them.
        const baseline =
          request.mcpChangeRecords === true && isMutatingTool(request.tool)
            ? await changeRecorder().before(request.workspaceRoot)
            : null;
        let result;
        try {
          result = await connection.callTool(tool.name, { ...request.args }, timeoutMs, signal);
        } finally {
          if (baseline !== null) changes = await changeRecorder().after(baseline);
        }
        const text = mcpResultText(result);
        const bytes = Buffer.byteLength(text, 'utf8');
        const limit = config?.maxResultBytes ?? 1024 * 1024;
        if (bytes > limit)
          throw new McpError(
            'mcp_result_oversized',
            `MCP server ${source.id} returned ${bytes} bytes from ${tool.name}, more than its limit of ${limit}`,
          );
        if (result.isError === true)
          return finish(
            'failed',
            text,
            `mcp_error_result: ${tool.name} reported an error: ${text.slice(0, 500) || 'no message'}`,
          );
        return finish('succeeded', text, null);
      } catch (error) {
        if (signal.aborted) return finish('aborted', '', 'the call was aborted');
        if (error instanceof McpError)
          return finish(
            error.failure === 'mcp_call_timed_out' ? 'timed_out' : 'failed',
            '',
            `${error.failure}: ${error.message}`,
          );
        return finish(
          'failed',
          '',
          `mcp_server_crashed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },

    async close() {
      if (options.changes === undefined) recorder?.close();
      const all = [...live.values()];
      live.clear();
      await Promise.all(
        all.map((opening) =>
          opening.then(
            (current) => current.connection.close(),
            () => undefined,
          ),
        ),
      );
    },
  };
}

/** Routes each call to the MCP runner when its tool comes from an MCP server, else to `builtin`. */
export function createRoutingToolRunner(builtin: ToolRunner, mcp: ToolRunner): ToolRunner {
  return {
    run: (request, signal) =>
      request.tool.source?.kind === 'mcp' ? mcp.run(request, signal) : builtin.run(request, signal),
  };
}

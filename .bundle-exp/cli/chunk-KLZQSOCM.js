import {
  McpError
} from "./chunk-BBKXGLQ3.js";
import {
  CHANGE_SCAN_LIMIT,
  buildReceipt,
  createChangeRecorder
} from "./chunk-3PPHKKT7.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  toolFromRecord
} from "./chunk-OYJRPCLU.js";
import {
  isMutatingTool,
  maxTier
} from "./chunk-IRD534JB.js";
import {
  canonicalJson
} from "./chunk-W32ANIA4.js";

// src/infrastructure/mcp/mcp-tool-definition.ts
var MAX_TOOL_NAME = 64;
var MAX_DESCRIPTION = 2e3;
function mcpToolName(server, tool) {
  const name = `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${nodeSha256(name).slice(0, 8)}`;
}
function mcpToolDigest(tool) {
  return nodeSha256(
    canonicalJson({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema ?? null,
      annotations: tool.annotations ?? null
    })
  );
}
function mcpToolTier(tool, defaultTier) {
  const hints = tool.annotations;
  if (hints === void 0) return { tier: defaultTier, capabilities: ["WRITES_FILES"] };
  const readOnly = hints.readOnlyHint === true && hints.destructiveHint !== true;
  let tier = readOnly ? "T0" : hints.destructiveHint === false ? defaultTier : "T3";
  if (hints.openWorldHint === true) tier = maxTier(tier, "T3");
  return { tier, capabilities: readOnly ? ["READ_ONLY"] : ["WRITES_FILES"] };
}
function recordMcpTool(server, tool, defaultTier) {
  const { tier, capabilities } = mcpToolTier(tool, defaultTier);
  const description = `[MCP server ${server}] ${tool.title ?? ""}${tool.title ? ": " : ""}${tool.description ?? tool.name}`;
  return {
    name: mcpToolName(server, tool.name),
    description: description.slice(0, MAX_DESCRIPTION),
    inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)),
    paramRoles: {},
    capabilities: [...capabilities],
    defaultTier: tier,
    source: { kind: "mcp", id: server, digest: mcpToolDigest(tool) }
  };
}
function mcpToolDefinition(server, tool, defaultTier) {
  return toolFromRecord(recordMcpTool(server, tool, defaultTier));
}

// src/infrastructure/mcp/mcp-listed-tools.ts
var RESOURCE_TOOLS = [
  {
    resource: "list",
    tool: {
      name: "resources_list",
      description: "Lists the server's resources (URI, name, type); pass cursor for the next page.",
      inputSchema: { type: "object", properties: { cursor: { type: "string" } } },
      annotations: { readOnlyHint: true, openWorldHint: false }
    }
  },
  {
    resource: "read",
    tool: {
      name: "resources_read",
      description: "Reads one of the server resources by its URI.",
      inputSchema: {
        type: "object",
        properties: { uri: { type: "string" } },
        required: ["uri"]
      },
      annotations: { readOnlyHint: true, openWorldHint: false }
    }
  }
];
async function listOfferedTools(connection, timeoutMs) {
  const server = connection.server;
  const own = (await connection.listTools(timeoutMs)).map((tool) => ({ tool }));
  const byName = /* @__PURE__ */ new Map();
  for (const { tool } of own) {
    const offered = mcpToolName(server, tool.name);
    const other = byName.get(offered);
    if (other !== void 0)
      throw new McpError(
        "mcp_tool_name_collision",
        `MCP server ${server} lists two tools that would both be offered as ${offered}: ${JSON.stringify(other)} and ${JSON.stringify(tool.name)}; rename one of them on the server`
      );
    byName.set(offered, tool.name);
  }
  const resources = connection.offersResources ? RESOURCE_TOOLS.filter((entry) => !byName.has(mcpToolName(server, entry.tool.name))) : [];
  return [...own, ...resources];
}

// src/infrastructure/mcp/list-mcp-tools.ts
async function listMcpTools(servers, options) {
  const names = Object.keys(servers).sort();
  if (names.length === 0) return [];
  const { McpConnection } = await import("./mcp-connection-TMLB3WUZ.js");
  return Promise.all(
    names.map(async (server) => {
      const config = servers[server];
      let connection;
      try {
        connection = await McpConnection.open({ ...options, server, config });
        const offered = await listOfferedTools(connection, config.startupTimeoutMs);
        const listed = offered.map((entry) => entry.tool);
        return {
          server,
          ok: true,
          serverInfo: connection.serverInfo,
          confinement: connection.confinement,
          listed,
          tools: listed.map((tool) => mcpToolDefinition(server, tool, config.defaultTier))
        };
      } catch (error) {
        const message = error instanceof McpError ? `${error.failure}: ${error.message}` : error instanceof Error ? error.message : String(error);
        return { server, ok: false, error: message };
      } finally {
        await connection?.close();
      }
    })
  );
}

// src/infrastructure/mcp/mcp-result-text.ts
function mcpResultText(result) {
  const parts = [];
  for (const block of result.content) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
      case "audio":
        parts.push(
          `[${block.type} ${block.mimeType}, ${Math.floor(block.data.length * 3 / 4)} bytes]`
        );
        break;
      case "resource_link":
        parts.push(`[resource ${block.uri}${block.description ? `: ${block.description}` : ""}]`);
        break;
      case "resource": {
        const resource = block.resource;
        parts.push(
          "text" in resource && typeof resource.text === "string" ? `[resource ${resource.uri}]
${resource.text}` : `[resource ${resource.uri}, binary]`
        );
        break;
      }
      default:
        parts.push(`[${block.type} content]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== void 0)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}

// src/infrastructure/mcp/mcp-tool-runner.ts
function createMcpToolRunner(options) {
  const live = /* @__PURE__ */ new Map();
  let recorder = options.changes;
  const changeRecorder = () => recorder ??= createChangeRecorder(
    options.preimages === void 0 ? {} : { preimages: options.preimages }
  );
  const connect = (server) => {
    const existing = live.get(server);
    if (existing !== void 0) return existing;
    const config = options.servers[server];
    if (config === void 0)
      return Promise.reject(
        new McpError(
          "mcp_server_failed_to_start",
          `MCP server ${server} is not configured in harness.yaml any more`
        )
      );
    const opening = (async () => {
      const { McpConnection } = await import("./mcp-connection-TMLB3WUZ.js");
      const connection = await McpConnection.open({ ...options, server, config });
      try {
        const listed = await listOfferedTools(connection, config.startupTimeoutMs);
        return {
          connection,
          tools: new Map(listed.map((entry) => [mcpToolName(server, entry.tool.name), entry]))
        };
      } catch (error) {
        await connection.close();
        throw error;
      }
    })();
    live.set(server, opening);
    opening.catch(() => live.delete(server));
    return opening;
  };
  const liveFor = async (server) => {
    const current = await connect(server);
    if (!current.connection.closed) return current;
    live.delete(server);
    return connect(server);
  };
  return {
    async run(request, signal) {
      const startedAt = Date.now();
      let changes = null;
      const finish = (outcome, text, error) => {
        const incomplete = changes?.complete === false ? `the change record is incomplete: the workspace has more than ${CHANGE_SCAN_LIMIT} entries` : null;
        const execution = buildReceipt({
          outcome,
          text,
          error: incomplete === null ? error : error === null ? incomplete : `${error}; ${incomplete}`,
          ...changes === null ? {} : { files: changes.files },
          startedAt,
          ...options.maxOutputBytes === void 0 ? {} : { cap: options.maxOutputBytes }
        });
        return execution;
      };
      const source = request.tool.source;
      if (source?.kind !== "mcp")
        return finish("refused", "", `${request.tool.name} is not an MCP tool`);
      const config = options.servers[source.id];
      try {
        const { connection, tools } = await liveFor(source.id);
        const entry = tools.get(request.tool.name);
        const tool = entry?.tool;
        if (entry === void 0 || tool === void 0)
          throw new McpError(
            "mcp_tool_not_listed",
            `MCP server ${source.id} no longer lists the tool behind ${request.tool.name}`
          );
        if (mcpToolDigest(tool) !== source.digest)
          throw new McpError(
            "mcp_tool_schema_changed",
            `MCP server ${source.id} changed ${tool.name} since this session recorded it (its description or schema differs), so the call was not sent`
          );
        const timeoutMs = config?.timeoutMs ?? 6e4;
        if (entry.resource !== void 0) {
          const args = request.args;
          const text2 = entry.resource === "list" ? await connection.listResources(
            typeof args.cursor === "string" ? args.cursor : void 0,
            timeoutMs
          ) : await connection.readResource(String(args.uri), timeoutMs);
          const limit2 = config?.maxResultBytes ?? 1024 * 1024;
          if (Buffer.byteLength(text2, "utf8") > limit2)
            throw new McpError(
              "mcp_result_oversized",
              `MCP server ${source.id} returned more than its limit of ${limit2} bytes from ${tool.name}`
            );
          return finish("succeeded", text2, null);
        }
        const baseline = request.mcpChangeRecords === true && isMutatingTool(request.tool) ? await changeRecorder().before(request.workspaceRoot) : null;
        let result;
        try {
          result = await connection.callTool(tool.name, { ...request.args }, timeoutMs, signal);
        } finally {
          if (baseline !== null) changes = await changeRecorder().after(baseline);
        }
        const text = mcpResultText(result);
        const bytes = Buffer.byteLength(text, "utf8");
        const limit = config?.maxResultBytes ?? 1024 * 1024;
        if (bytes > limit)
          throw new McpError(
            "mcp_result_oversized",
            `MCP server ${source.id} returned ${bytes} bytes from ${tool.name}, more than its limit of ${limit}`
          );
        if (result.isError === true)
          return finish(
            "failed",
            text,
            `mcp_error_result: ${tool.name} reported an error: ${text.slice(0, 500) || "no message"}`
          );
        return finish("succeeded", text, null);
      } catch (error) {
        if (signal.aborted) return finish("aborted", "", "the call was aborted");
        if (error instanceof McpError)
          return finish(
            error.failure === "mcp_call_timed_out" ? "timed_out" : "failed",
            "",
            `${error.failure}: ${error.message}`
          );
        return finish(
          "failed",
          "",
          `mcp_server_crashed: ${error instanceof Error ? error.message : String(error)}`
        );
      }
    },
    async close() {
      if (options.changes === void 0) recorder?.close();
      const all = [...live.values()];
      live.clear();
      await Promise.all(
        all.map(
          (opening) => opening.then(
            (current) => current.connection.close(),
            () => void 0
          )
        )
      );
    }
  };
}
function createRoutingToolRunner(builtin, mcp) {
  return {
    run: (request, signal) => request.tool.source?.kind === "mcp" ? mcp.run(request, signal) : builtin.run(request, signal)
  };
}

// src/infrastructure/mcp/mcp-tool-source.ts
function createMcpToolSource(options) {
  const connectOptions = (workspace, policy) => {
    const sandbox = {
      availability: options.availability,
      neverWritable: policy.neverWritable,
      hiddenPaths: options.hiddenPaths,
      readablePaths: policy.sandboxReadablePaths ?? []
    };
    return {
      env: options.env,
      workspaceRoot: workspace,
      homeDirectory: options.homeDirectory,
      sandbox,
      searchPath: options.searchPath
    };
  };
  return {
    list: (servers, workspace, policy) => listMcpTools(servers, connectOptions(workspace, policy)),
    runner: (servers, workspace, policy) => createMcpToolRunner({
      ...connectOptions(workspace, policy),
      servers,
      ...options.preimages === void 0 ? {} : { preimages: options.preimages }
    })
  };
}

export {
  createRoutingToolRunner,
  createMcpToolSource
};

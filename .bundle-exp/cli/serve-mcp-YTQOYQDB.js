import {
  parseCandidatePolicy
} from "./chunk-XELQNMR6.js";
import {
  allowedWorkspace
} from "./chunk-EIUC3KSU.js";
import {
  describeSessionDiff,
  sessionDiffLines
} from "./chunk-PGOHPXNJ.js";
import {
  undoSessionChanges
} from "./chunk-ATWBWUEV.js";
import {
  createDiskWorldProbe
} from "./chunk-MTLPFOPA.js";
import "./chunk-I3NCHX22.js";
import {
  runSummaryLines
} from "./chunk-Q5EJZHTI.js";
import {
  formatEventJson
} from "./chunk-COXYAFIA.js";
import {
  storedText
} from "./chunk-SBJOCTIJ.js";
import {
  readSessionLogs,
  runSummary
} from "./chunk-JKRDLZET.js";
import "./chunk-DZXTZ55Z.js";
import "./chunk-UVXJS6JF.js";
import {
  createPreimageStore,
  preimageDirectory
} from "./chunk-76ZWS4BR.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import "./chunk-XKPU3YP3.js";
import "./chunk-NR7OTU2D.js";
import "./chunk-P2JR5UVJ.js";
import "./chunk-BEI6ZGZB.js";
import {
  UnknownSessionError,
  proposedCallPaths,
  sessionProjection,
  whatIfPolicy,
  whatIfProposedCall
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import {
  OperatorModeSchema
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/mcp-server/serve-mcp.ts
import { realpathSync } from "node:fs";
import { resolve as resolve2 } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

// src/interfaces/mcp-server/correx-mcp-server.ts
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

// src/interfaces/mcp-server/policy-what-if-tool.ts
import { z } from "zod";

// src/interfaces/mcp-server/tool-result.ts
function jsonResult(value, text) {
  return {
    content: [{ type: "text", text: text ?? JSON.stringify(value, null, 2) }],
    structuredContent: value
  };
}
function errorResult(error) {
  const text = CorrexError.isInstance(error) ? `${error.code}: ${error.message}` : `internal_error: ${error instanceof Error ? error.message : String(error)}`;
  return { isError: true, content: [{ type: "text", text }] };
}
async function answer(body) {
  try {
    return await body();
  } catch (error) {
    return errorResult(error);
  }
}
async function knownSession(store, sessionId) {
  if (await store.lastSequence(sessionId) === 0) throw new UnknownSessionError(sessionId);
  return sessionId;
}

// src/interfaces/mcp-server/policy-what-if-tool.ts
function registerPolicyWhatIfTool(server, deps) {
  server.registerTool(
    "policy_what_if",
    {
      title: "Policy what-if",
      description: "Without running anything: with `tool` (and `args`), how the session's recorded policy would assess that call now (the paths it names observed on disk now) (verdict, tier, findings) and whether its mode and grants would let it run or a person must decide; with `policy` (a harness.yaml or policy document, YAML or JSON), the same under that candidate, and every recorded call of the session whose verdict or tier it would change (correx policy what-if).",
      inputSchema: {
        sessionId: z.string().min(1),
        tool: z.string().optional().describe("the proposed call: a tool the session offers"),
        args: z.record(z.string(), z.unknown()).optional().describe("the call's arguments"),
        stage: z.string().optional().describe("the stage it would run in (default: the latest)"),
        policy: z.string().optional().describe("a candidate policy as YAML or JSON text")
      },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    (args) => answer(async () => {
      if (args.tool === void 0 && args.policy === void 0)
        throw new CorrexError("usage", "give a proposed call (tool, args), a policy, or both");
      const sessionId = await knownSession(deps.store, args.sessionId);
      const events = await deps.store.read(sessionId);
      const candidate = args.policy === void 0 ? void 0 : parseCandidatePolicy(args.policy, "the policy argument");
      let proposed = null;
      if (args.tool !== void 0) {
        const call = {
          tool: args.tool,
          args: args.args ?? {},
          ...args.stage === void 0 ? {} : { stageId: args.stage }
        };
        const workspace = (await deps.store.read(sessionId, { limit: 5 })).find(
          (event) => event.payload.type === "session_created"
        )?.payload;
        const probe = createDiskWorldProbe({
          hashOnlyUnder: workspace?.workspace === void 0 ? [] : [workspace.workspace]
        });
        const observations = await Promise.all(
          proposedCallPaths(events, call).map((path) => probe.observe(path))
        );
        proposed = whatIfProposedCall(events, call, candidate, observations);
      }
      if (proposed !== null && !proposed.ok) throw new CorrexError("usage", proposed.reason);
      return jsonResult({
        sessionId,
        proposedCall: proposed,
        recordedCalls: candidate === void 0 ? null : whatIfPolicy(events, candidate)
      });
    })
  );
}

// src/interfaces/mcp-server/session-diff-tool.ts
import { z as z2 } from "zod";
function registerSessionDiffTool(server, deps) {
  server.registerTool(
    "session_diff",
    {
      title: "Diff of a correx session",
      description: "What a session changed in the workspace, call by call with the commands that changed it, as unified diffs (what correx diff prints), from the recorded change records and stored pre-images.",
      inputSchema: {
        sessionId: z2.string().min(1),
        stage: z2.string().optional().describe("only the calls of this stage")
      },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    (args) => answer(async () => {
      const sessionId = await knownSession(deps.store, args.sessionId);
      const changes = describeSessionDiff(
        await deps.store.read(sessionId),
        createPreimageStore(preimageDirectory(deps.correxHome)),
        args.stage === void 0 ? {} : { stageId: args.stage }
      );
      const text = changes.length === 0 ? `no recorded changes in session ${sessionId}` : sessionDiffLines(changes).join("\n");
      return jsonResult({ sessionId, changes }, text);
    })
  );
}

// src/interfaces/mcp-server/session-events-tool.ts
import { z as z3 } from "zod";
var MAX_EVENTS_PAGE = 500;
function registerSessionEventsTool(server, deps) {
  server.registerTool(
    "session_events",
    {
      title: "Events of a correx session",
      description: `A page of a session's event log in order, each event its canonical envelope as correx events --json prints it (NDJSON in the text). Read on from nextFrom; at most ${MAX_EVENTS_PAGE} per page.`,
      inputSchema: {
        sessionId: z3.string().min(1),
        from: z3.number().int().min(1).optional().describe("the first sequence (default 1)"),
        limit: z3.number().int().min(1).max(MAX_EVENTS_PAGE).optional().describe("at most this many events (default 100)")
      },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    (args) => answer(async () => {
      const sessionId = await knownSession(deps.store, args.sessionId);
      const from = args.from ?? 1;
      const read = await deps.store.read(sessionId, {
        afterSequence: from - 1,
        limit: args.limit ?? 100
      });
      const lines = read.map(formatEventJson);
      const last = read.at(-1)?.sequence ?? from - 1;
      const lastSequence = await deps.store.lastSequence(sessionId);
      return jsonResult(
        {
          sessionId,
          events: lines.map((line) => JSON.parse(line)),
          nextFrom: last < lastSequence ? last + 1 : null,
          lastSequence
        },
        lines.length === 0 ? `no events from #${from} in session ${sessionId}` : lines.join("\n")
      );
    })
  );
}

// src/interfaces/mcp-server/session-outcome-tool.ts
import { z as z4 } from "zod";
function registerSessionOutcomeTool(server, deps) {
  server.registerTool(
    "session_outcome",
    {
      title: "Outcome of a correx session",
      description: "The summary correx show --summary prints: outcome and exit code, failure reason, checks, files changed with +/- lines, tokens, cost, and the commands a person runs next.",
      inputSchema: { sessionId: z4.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    (args) => answer(async () => {
      const sessionId = await knownSession(deps.store, args.sessionId);
      const summary = runSummary(
        sessionId,
        await readSessionLogs(deps.store, sessionId),
        storedText(deps.correxHome),
        nodeSha256
      );
      return {
        ...jsonResult(summary),
        content: [
          { type: "text", text: runSummaryLines(summary).join("\n") },
          { type: "text", text: JSON.stringify(summary, null, 2) }
        ]
      };
    })
  );
}

// src/interfaces/mcp-server/session-status-tool.ts
import { z as z5 } from "zod";

// src/interfaces/mcp-server/session-status.ts
async function readSessionStatus(deps, sessionId) {
  await knownSession(deps.store, sessionId);
  const logs = await readSessionLogs(deps.store, sessionId);
  const summary = runSummary(sessionId, logs, storedText(deps.correxHome), nodeSha256);
  let state = sessionProjection.initial();
  for (const event of logs.get(sessionId) ?? []) state = sessionProjection.evolve(state, event);
  const finished = ["completed", "failed", "cancelled"].includes(summary.status);
  const driver = finished ? null : await deps.sessionDriver?.(sessionId);
  const driven = finished ? false : driver === void 0 ? deps.host.running().includes(sessionId) || null : driver !== null;
  const waitingFor = summary.waitingFor?.kind === "resume" && summary.status === "running" && driven !== false ? null : summary.waitingFor;
  return {
    sessionId,
    phase: summary.status,
    stage: state.activeStage?.stageId ?? state.nextStage?.stageId ?? state.lastStageId,
    waitingFor,
    needsPerson: waitingFor !== null,
    driven,
    drivenBy: driver ?? null,
    lastSequence: summary.lastSequence
  };
}

// src/interfaces/mcp-server/session-status-tool.ts
function registerSessionStatusTool(server, deps) {
  server.registerTool(
    "session_status",
    {
      title: "Status of a correx session",
      description: "Where a session stands: phase (running, paused, completed, failed, cancelled), stage, whether it waits for a person and for what, and whether a process drives it.",
      inputSchema: { sessionId: z5.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    (args) => answer(async () => jsonResult(await readSessionStatus(deps, args.sessionId)))
  );
}

// src/interfaces/mcp-server/start-session-tool.ts
import { resolve } from "node:path";
import { z as z6 } from "zod";

// src/interfaces/mcp-server/mode-ceiling.ts
var PERMISSIVENESS = {
  deny: 0,
  prompt: 1,
  auto: 2,
  yolo: 3
};
function modeAbove(mode, ceiling) {
  return PERMISSIVENESS[mode] > PERMISSIVENESS[ceiling];
}
function mcpSessionMode(asked, ceiling) {
  if (asked !== void 0) return modeAbove(asked, ceiling) ? null : asked;
  return modeAbove("auto", ceiling) ? ceiling : "auto";
}

// src/interfaces/mcp-server/start-session-tool.ts
function registerStartSessionTool(server, deps) {
  server.registerTool(
    "start_session",
    {
      title: "Start a correx session",
      description: "Start a correx session on a task in a workspace folder and return its id at once; it runs in the background. Poll session_status until its phase is completed, failed or cancelled. Calls that need a person's approval wait for one (correx approve, or the web page of correx serve): no tool here approves anything.",
      inputSchema: {
        task: z6.string().min(1).describe("what the agent should do"),
        workspace: z6.string().optional().describe(
          "the folder it works in (absolute, or relative to where correx mcp started; default: that folder)"
        ),
        workflow: z6.string().optional().describe("a workflow name from harness.yaml"),
        model: z6.string().optional().describe("a model profile id from harness.yaml"),
        mode: OperatorModeSchema.optional().describe(
          "approval mode; default auto, never above the operator's configured mode"
        )
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true }
    },
    (args) => answer(async () => {
      const ceiling = (await deps.host.options()).defaultMode;
      const mode = mcpSessionMode(args.mode, ceiling);
      if (mode === null)
        throw new CorrexError(
          "usage",
          `mode ${args.mode} lets more run without a person than the operator's configured mode ${ceiling} allows (mode: in $CORREX_HOME/harness.yaml)`
        );
      const workspace = await allowedWorkspace(
        resolve(deps.cwd, args.workspace ?? "."),
        deps.allowedRoots
      );
      if (!workspace.ok)
        throw new CorrexError(
          "usage",
          `${workspace.message}${workspace.reason === "outside" ? ` (correx mcp --allow-root; allowed: ${deps.allowedRoots.join(", ")})` : ""}`
        );
      const run = await deps.host.start({
        task: args.task,
        workspace: workspace.path,
        mode,
        // The mode a workspace's configuration resolves to is held to the same ceiling.
        checkMode: (resolved) => {
          if (modeAbove(resolved, ceiling))
            throw new CorrexError(
              "usage",
              `the session would run in mode ${resolved}, above the operator's configured mode ${ceiling}`
            );
        },
        ...args.workflow === void 0 ? {} : { workflow: args.workflow },
        ...args.model === void 0 ? {} : { modelProfile: args.model }
      });
      run.done.catch(
        (error) => deps.log(
          `session ${run.sessionId}: ${error instanceof Error ? error.message : String(error)}`
        )
      );
      return jsonResult({ sessionId: run.sessionId, mode, workspace: workspace.path });
    })
  );
}

// src/interfaces/mcp-server/undo-session-tool.ts
import { z as z7 } from "zod";
function registerUndoSessionTool(server, deps) {
  server.registerTool(
    "undo_session",
    {
      title: "Undo a correx session's changes",
      description: "Restore the workspace files a finished or paused session changed, to before it (or to a recorded sequence or the start of a stage), from the stored pre-images; refuses, changing nothing, when a file was changed outside correx since. Recorded as workspace_restored (what correx undo does).",
      inputSchema: {
        sessionId: z7.string().min(1),
        toSequence: z7.number().int().min(0).optional().describe("undo every change recorded after this event"),
        stage: z7.string().optional().describe("undo every change since this stage last started")
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false }
    },
    (args) => answer(async () => {
      const { sessionId } = args;
      const result = await undoSessionChanges(
        {
          store: deps.store,
          recording: deps.recording,
          preimages: createPreimageStore(preimageDirectory(deps.correxHome))
        },
        {
          sessionId,
          by: deps.user,
          ...args.toSequence === void 0 ? {} : { toSequence: args.toSequence },
          ...args.stage === void 0 ? {} : { stageId: args.stage }
        }
      );
      switch (result.outcome) {
        case "unknown_session":
          throw new UnknownSessionError(sessionId);
        case "running":
          throw new CorrexError(
            "usage",
            `session ${sessionId} is running: it can be undone once it finished or paused`
          );
        case "invalid":
          throw new CorrexError("usage", result.message);
        case "nothing":
          return jsonResult({ sessionId, outcome: "nothing", toSequence: result.toSequence });
        case "refused":
          return {
            ...jsonResult({
              sessionId,
              outcome: "refused",
              changedSince: result.changedSince,
              missingPreimages: result.missingPreimages,
              outsideWorkspace: result.outsideWorkspace
            }),
            isError: true
          };
        case "restored":
          return jsonResult({
            sessionId,
            outcome: "restored",
            toSequence: result.toSequence,
            files: result.files.map((file) => ({
              path: file.path,
              restored: file.access === "delete" ? "deleted" : "restored"
            })),
            recordedAs: result.event.sequence
          });
      }
    })
  );
}

// src/interfaces/mcp-server/verify-replay-tool.ts
import { z as z8 } from "zod";
function registerVerifyReplayTool(server, deps) {
  server.registerTool(
    "verify_replay",
    {
      title: "Verify the replay of a correx session",
      description: "Rebuild a session from its event log alone (no model, no tools), re-deriving every decision, and compare each derived event with the recorded one byte for byte (correx replay --verify). ok: identical; else the first divergence.",
      inputSchema: { sessionId: z8.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    (args) => answer(async () => {
      const sessionId = await knownSession(deps.store, args.sessionId);
      const verification = await deps.host.replayVerify(sessionId);
      const result = jsonResult(
        { sessionId, ...verification },
        verification.ok ? `replay of ${sessionId}: identical \u2014 ${verification.events} events` : `replay of ${sessionId}: DIVERGES at #${verification.divergence.sequence}: ${verification.divergence.reason}`
      );
      return verification.ok ? result : { ...result, isError: true };
    })
  );
}

// src/interfaces/mcp-server/correx-mcp-server.ts
function createCorrexMcpServer(deps) {
  const server = new McpServer(
    { name: "correx", version: deps.version },
    {
      instructions: "correx runs coding tasks as recorded, replayable sessions. start_session returns an id at once; poll session_status until the phase is completed, failed or cancelled, then read session_outcome and session_diff. A session that waits for a person (needsPerson) waits for a decision made by a person with correx approve/deny or the web page: no tool here approves anything."
    }
  );
  registerStartSessionTool(server, deps);
  registerSessionStatusTool(server, deps);
  registerSessionOutcomeTool(server, deps);
  registerSessionDiffTool(server, deps);
  registerSessionEventsTool(server, deps);
  registerUndoSessionTool(server, deps);
  registerVerifyReplayTool(server, deps);
  registerPolicyWhatIfTool(server, deps);
  return server;
}

// src/interfaces/mcp-server/serve-mcp.ts
async function serveMcp(context, options) {
  const streams = context.protocolStreams;
  if (streams === void 0)
    throw new CorrexError("usage", "this correx cannot speak a protocol on its stdin and stdout");
  const log = (line) => context.err(`correx mcp: ${line}`);
  const allowedRoots = options.allowRoots.map((root) => {
    try {
      return realpathSync(resolve2(context.cwd, root));
    } catch {
      throw new CorrexError("usage", `--allow-root ${root} does not exist`);
    }
  });
  const stores = await context.openStores(options.location, { create: true });
  try {
    const host = await context.createSessionHost({
      store: stores.events,
      location: options.location,
      attend: true
    });
    const server = createCorrexMcpServer({
      version: context.version,
      store: stores.events,
      host,
      correxHome: context.correxHome,
      recording: context,
      user: context.user,
      cwd: context.cwd,
      allowedRoots,
      ...context.sessionDriver === void 0 ? {} : {
        sessionDriver: (sessionId) => context.sessionDriver(options.location, sessionId)
      },
      log
    });
    const input = streams.input;
    const stopped = new Promise((done) => {
      const release = context.onInterrupt(() => {
        release();
        done();
      });
      input.once("end", done);
      input.once("close", done);
      server.server.onclose = done;
    });
    await server.connect(new StdioServerTransport(input, streams.output));
    log(`serving on stdio (store ${stores.location}; workspaces under ${allowedRoots.join(", ")})`);
    await stopped;
    await host.shutdown();
    await server.close();
  } finally {
    await stores.close();
  }
}
export {
  serveMcp
};

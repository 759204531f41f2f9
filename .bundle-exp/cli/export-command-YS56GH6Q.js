import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  UnknownSessionError
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/export-command.ts
import { Command } from "commander";
async function sessionTree(store, sessionId) {
  const tree = /* @__PURE__ */ new Map();
  const pending = [sessionId];
  while (pending.length > 0) {
    const id = pending.pop();
    if (tree.has(id)) continue;
    const events = await store.read(id);
    tree.set(id, events);
    for (const event of events)
      if (event.payload.type === "subagent_started") pending.push(event.payload.childSessionId);
  }
  return tree;
}
function exportCommand(context) {
  const otel = new Command("otel").description(
    "send a recorded session's trace (stages, model and tool calls, approvals) over OTLP/HTTP, with the times it recorded"
  ).argument("[session]", SESSION_ARGUMENT).option(
    "--endpoint <url>",
    "the OTLP/HTTP base URL (default: OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)"
  ).action(async (typed, options, command) => {
    await withStore(context, command, async ({ events }) => {
      const sessionId = await resolveSessionRef(events, typed, command);
      const tree = await sessionTree(events, sessionId);
      if ((tree.get(sessionId) ?? []).length === 0) throw new UnknownSessionError(sessionId);
      const { spans } = await context.exportTrace(
        sessionId,
        tree,
        options.endpoint === void 0 ? {} : { endpoint: options.endpoint }
      );
      context.out(`sent ${spans} spans of session ${sessionId}`);
    });
  });
  return new Command("export").description("send recorded sessions to other systems").addCommand(otel);
}
export {
  exportCommand
};

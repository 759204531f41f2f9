import {
  parsePersonName
} from "./chunk-XMF5IPWG.js";
import "./chunk-X5SESA4I.js";
import {
  formatJson,
  formatTable
} from "./chunk-5MQ6PZFE.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  storeLocation,
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  recordCommand,
  replay,
  sessionProjection
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/session-commands.ts
import { Command } from "commander";
var POLL_MS = 250;
var REDIRECT_WAIT_MS = 3e4;
function sessionAnd(command, first, second, what) {
  const last = command.optsWithGlobals().last === true;
  const [session, other] = last && second === void 0 ? [void 0, first] : [first, second];
  if (other === void 0) throw new CorrexError("usage", `missing the ${what}`);
  return [session, other];
}
async function record(context, command, typed, kernelCommand, afterRecording) {
  await withStore(context, command, async ({ events }) => {
    const sessionId = await resolveSessionRef(events, typed, command);
    const stored = await recordCommand(context, events, sessionId, kernelCommand);
    if (stored.length === 0)
      return context.out(
        `nothing to record: session ${sessionId} is already ${kernelCommand.type === "resume" ? "running" : "there"}`
      );
    for (const event of stored) {
      if (event.payload.type === "lifecycle_rejected" || event.payload.type === "redirect_rejected") {
        context.err(`correx: refused: ${event.payload.message}`);
        context.fail(1);
      } else {
        context.out(`recorded ${event.payload.type} as #${event.sequence} in session ${sessionId}`);
      }
    }
    if (afterRecording !== void 0 && stored.length > 0)
      await afterRecording(events, sessionId, stored.at(-1).sequence);
  });
}
function awaitRedirectOutcome(context, command) {
  return async (events, sessionId, requested) => {
    const driver = await context.sessionDriver?.(storeLocation(context, command), sessionId);
    if (driver === null) {
      context.out(
        `nobody drives session ${sessionId} now: the redirect is decided when it runs again (correx resume ${sessionId})`
      );
      return;
    }
    const started = Date.now();
    while (Date.now() - started < REDIRECT_WAIT_MS) {
      for (const event of await events.read(sessionId, { afterSequence: requested })) {
        const payload = event.payload;
        if (payload.type === "redirect_rejected") {
          context.err(`correx: refused: ${payload.message}`);
          context.fail(1);
          return;
        }
        if (payload.type === "stage_redirected") {
          context.out(`redirected: ${payload.from} \u2192 ${payload.to}`);
          return;
        }
      }
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
    context.out(
      `the session has not decided the redirect yet; see: correx events ${sessionId} --from ${requested}`
    );
  };
}
function sessionCommands(context) {
  const approvals = new Command("approvals").description("list the tool calls of a session that wait for a person to approve or deny them").argument("[session]", SESSION_ARGUMENT).option("--json", "print JSON").action(async (typed, options, command) => {
    await withStore(context, command, async ({ events }) => {
      const sessionId = await resolveSessionRef(events, typed, command);
      const { state } = await replay(events, sessionProjection, sessionId);
      if (options.json) return context.out(formatJson(state.pendingApprovals));
      if (state.pendingApprovals.length === 0)
        return context.out(`no approvals pending in session ${sessionId}`);
      context.out(
        formatTable(
          ["CALL", "TOOL", "TIER"],
          state.pendingApprovals.map((p) => [p.callId, p.tool, p.tier])
        )
      );
    });
  });
  const approve = new Command("approve").description("approve a pending tool call (recorded with who approved it and why)").argument("[session]", SESSION_ARGUMENT).argument("[call]", "call id (see `correx approvals`)").option("--reason <text>", "why").option("--by <name>", "who approves (default: $USER)", parsePersonName).action(
    async (first, second, options, command) => {
      const [typed, callId] = sessionAnd(command, first, second, "call id");
      await record(context, command, typed, {
        type: "approve",
        callId,
        by: options.by ?? context.user,
        ...options.reason === void 0 ? {} : { reason: options.reason }
      });
    }
  );
  const deny = new Command("deny").description("deny a pending tool call; it does not run").argument("[session]", SESSION_ARGUMENT).argument("[call]", "call id (see `correx approvals`)").requiredOption("--reason <text>", "why (the model is told)").option("--by <name>", "who denies (default: $USER)", parsePersonName).action(
    async (first, second, options, command) => {
      const [typed, callId] = sessionAnd(command, first, second, "call id");
      await record(context, command, typed, {
        type: "deny",
        callId,
        by: options.by ?? context.user,
        reason: options.reason
      });
    }
  );
  const steer = new Command("steer").description("add a steering note that the session's next context pack carries").argument("[session]", SESSION_ARGUMENT).argument("[note]", "what the model should take into account").option("--stage <stage>", "only for this stage").action(
    async (first, second, options, command) => {
      const [typed, note] = sessionAnd(command, first, second, "note");
      await record(context, command, typed, {
        type: "steer",
        content: note,
        ...options.stage === void 0 ? {} : { stageId: options.stage }
      });
    }
  );
  const redirect = new Command("redirect").description(
    "move a running session to another stage, along a transition its workflow declares from the current one"
  ).argument("[session]", SESSION_ARGUMENT).argument("[stage]", "the stage to move to").option("--reason <text>", "why (the model of the target stage is told)").option("--by <name>", "who (default: $USER)", parsePersonName).action(
    async (first, second, options, command) => {
      const [typed, stage] = sessionAnd(command, first, second, "stage");
      await record(
        context,
        command,
        typed,
        {
          type: "redirect",
          to: stage,
          by: options.by ?? context.user,
          ...options.reason === void 0 ? {} : { reason: options.reason }
        },
        awaitRedirectOutcome(context, command)
      );
    }
  );
  const lifecycle = (type, description) => new Command(type).description(description).argument("[session]", SESSION_ARGUMENT).option("--reason <text>", "why").option("--by <name>", "who (default: $USER)", parsePersonName).action(
    async (typed, options, command) => {
      await record(context, command, typed, {
        type,
        by: options.by ?? context.user,
        ...options.reason === void 0 ? {} : { reason: options.reason }
      });
    }
  );
  return [
    approvals,
    approve,
    deny,
    steer,
    redirect,
    lifecycle("pause", "pause a session: nothing more runs until it is resumed"),
    lifecycle("cancel", "cancel a session; a running tool or model call is stopped")
  ];
}
export {
  sessionCommands
};

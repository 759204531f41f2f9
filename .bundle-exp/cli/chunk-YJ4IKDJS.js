import {
  createEventLines
} from "./chunk-ZXW5ESJJ.js";

// src/interfaces/cli/session-progress.ts
var GREEN = "\x1B[32m";
var RED = "\x1B[31m";
var DIM = "\x1B[2m";
var RESET = "\x1B[0m";
function colourLine(line, colour) {
  if (!colour) return line;
  const mark = line.trimStart().replace(/^\[[^\]]*\] /, "")[0];
  if (mark === "\u2713") return `${GREEN}${line}${RESET}`;
  if (mark === "\u2717") return `${RED}${line}${RESET}`;
  if (line.includes("waiting for approval")) return `${DIM}${line}${RESET}`;
  return line;
}
function createSessionProgress(context, colour) {
  let running = null;
  let root;
  const views = /* @__PURE__ */ new Map();
  const render = () => {
    if (running === null) return context.status("");
    const seconds = Math.floor((Date.now() - running.since) / 1e3);
    context.status(`\u2026 ${running.label} ${seconds}s`);
  };
  const timer = context.terminal ? setInterval(render, 1e3) : void 0;
  timer?.unref();
  return {
    onEvent(event) {
      root ??= event.sessionId;
      let view = views.get(event.sessionId);
      if (view === void 0) views.set(event.sessionId, view = createEventLines());
      for (const line of view.lines(event))
        context.out(`${event.sessionId === root ? "" : "  \u21B3 "}${colourLine(line, colour)}`);
      const payload = event.payload;
      if (payload.type === "inference_requested") {
        running = {
          label: `model ${payload.model} thinking (stage ${payload.stageId})`,
          since: Date.now()
        };
      } else if (payload.type === "journal_summary_requested") {
        running = {
          label: `model ${payload.model} summarising the journal (stage ${payload.stageId})`,
          since: Date.now()
        };
      } else if (payload.type === "tool_call_started") {
        running = { label: `running ${payload.tool}`, since: Date.now() };
      } else if (payload.type === "inference_completed" || payload.type === "tool_receipt") {
        running = null;
      }
      render();
    },
    dispose() {
      if (timer !== void 0) clearInterval(timer);
      running = null;
      context.status("");
    }
  };
}

export {
  colourLine,
  createSessionProgress
};

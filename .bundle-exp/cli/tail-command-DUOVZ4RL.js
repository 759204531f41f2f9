import {
  parseCount
} from "./chunk-JPE2QVXK.js";
import "./chunk-5MQ6PZFE.js";
import {
  colourLine
} from "./chunk-YJ4IKDJS.js";
import {
  formatEventJson
} from "./chunk-COXYAFIA.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  createEventLines
} from "./chunk-ZXW5ESJJ.js";
import "./chunk-XKPU3YP3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  UnknownSessionError,
  sessionProjection
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import {
  isFinalStatus
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/tail-command.ts
import { Command } from "commander";
var POLL_MS = 250;
var PAGE = 500;
function tailCommand(context) {
  return new Command("tail").description("follow a live session from another terminal until it finishes (Ctrl-C stops)").argument("[session]", SESSION_ARGUMENT).option("--from <sequence>", "start at this sequence (default 1)", parseCount).option("--json", "print NDJSON, one canonical envelope per line").action(
    async (typed, options, command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const stop = new AbortController();
        const stopListening = context.onInterrupt(() => stop.abort());
        try {
          if (await events.lastSequence(sessionId) === 0)
            throw new UnknownSessionError(sessionId);
          let state = sessionProjection.initial();
          let after = 0;
          const view = createEventLines();
          const from = options.from ?? 0;
          while (!stop.signal.aborted) {
            const page = await events.read(sessionId, { afterSequence: after, limit: PAGE });
            for (const event of page) {
              state = sessionProjection.evolve(state, event);
              after = event.sequence;
              if (event.sequence < from) {
                view.lines(event);
                continue;
              }
              if (options.json) {
                context.out(formatEventJson(event));
              } else {
                view.lines(event).forEach(
                  (line, index) => context.out(
                    `${index === 0 ? String(event.sequence).padStart(5) : "     "}  ${colourLine(line, context.terminal)}`
                  )
                );
              }
            }
            if (page.length === PAGE) continue;
            if (isFinalStatus(state.status) && await events.lastSequence(sessionId) === after)
              break;
            await new Promise((done) => setTimeout(done, POLL_MS));
          }
          if (!options.json) context.out(`session ${sessionId} ${state.status} (#${after})`);
        } finally {
          stopListening();
        }
      });
    }
  );
}
export {
  tailCommand
};

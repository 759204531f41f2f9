import {
  describeSteeringDelivery
} from "./chunk-ZTXOABQK.js";
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
import {
  visibleText
} from "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/chat-command.ts
import { Command } from "commander";
var HELP = [
  "Type a question about the session, or:",
  "  /steer <note>   a steering note: recorded in the session, read by its next model call",
  "  /deliveries     which steering notes reached a model call, and when",
  "  /help           this list",
  "  /quit           leave (the session keeps running)"
].join("\n");
var PROMPT = "you> ";
async function exchange(context, facade, sessionId, input, mode, signal) {
  const reply = await facade.onUserInput(sessionId, input, mode, signal);
  context.out(`router: ${reply.content}`);
  if (reply.citedSequences.length > 0)
    context.out(
      `        (cites ${reply.citedSequences.map((sequence) => `#${sequence}`).join(", ")})`
    );
  if (reply.steeringNote !== null)
    context.out(
      `        steering note recorded as #${reply.steeringNote.sequence}; /deliveries shows when a model call reads it`
    );
}
function chatCommand(context) {
  return new Command("chat").description("talk to the router about a session; steer it with /steer <note>").argument("[session]", SESSION_ARGUMENT).option("--ask <question>", "ask one question and exit").option("--steer <note>", "send one steering note through the router and exit").action(
    async (typed, options, command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        if (await events.lastSequence(sessionId) === 0)
          throw new UnknownSessionError(sessionId);
        const router = await context.createRouter(events);
        const abort = new AbortController();
        const stopListening = context.onInterrupt(() => abort.abort());
        try {
          if (options.ask !== void 0 || options.steer !== void 0) {
            if (options.ask !== void 0)
              await exchange(
                context,
                router.facade,
                sessionId,
                options.ask,
                "normal",
                abort.signal
              );
            if (options.steer !== void 0)
              await exchange(
                context,
                router.facade,
                sessionId,
                options.steer,
                "steering",
                abort.signal
              );
            return;
          }
          context.out(HELP);
          const prompt = () => {
            if (context.terminal) context.status(PROMPT);
          };
          prompt();
          for await (const raw of context.lines(abort.signal)) {
            const line = raw.trim();
            if (abort.signal.aborted) break;
            if (line === "") {
              prompt();
              continue;
            }
            if (line.startsWith("/")) {
              const [name = "", ...rest] = line.split(/\s+/);
              const argument = rest.join(" ");
              if (name === "/quit") break;
              if (name === "/help") context.out(HELP);
              else if (name === "/deliveries") {
                const deliveries = await router.facade.deliveriesOf(sessionId);
                if (deliveries.length === 0) context.out("no steering notes in this session");
                for (const delivery of deliveries)
                  context.out(describeSteeringDelivery(delivery));
              } else if (name === "/steer" && argument !== "") {
                await talk(argument, "steering");
              } else if (name === "/steer") {
                context.out("usage: /steer <note>");
              } else {
                context.out(
                  `unknown command ${visibleText(name)}; /help lists the commands (nothing was sent to the router)`
                );
              }
              prompt();
              continue;
            }
            await talk(line, "normal");
            prompt();
          }
          async function talk(input, mode) {
            try {
              await exchange(context, router.facade, sessionId, input, mode, abort.signal);
            } catch (error) {
              context.err(`correx: ${error.message}`);
            }
          }
        } finally {
          if (context.terminal) context.status("");
          stopListening();
          await router.dispose();
        }
      });
    }
  );
}
export {
  chatCommand
};

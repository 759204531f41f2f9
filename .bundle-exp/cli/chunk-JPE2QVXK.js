import {
  formatTable
} from "./chunk-5MQ6PZFE.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  canonicalJson
} from "./chunk-W32ANIA4.js";

// src/interfaces/cli/commands/events-command.ts
import { Command, InvalidArgumentError } from "commander";
function parseCount(value) {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0)
    throw new InvalidArgumentError("expected a whole number >= 0");
  return number;
}
function summarize(payload) {
  return Object.entries(payload).filter(([key]) => key !== "type").map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`).join(" ").slice(0, 120);
}
function eventsCommand(context) {
  return new Command("events").description("print a session's events in order (hash chain verified as they are read)").argument("[session]", SESSION_ARGUMENT).option("--from <sequence>", "start at this sequence (default 1)", parseCount).option("--limit <count>", "at most this many events", parseCount).option("--json", "print NDJSON: one canonical envelope (with position and hash) per line").action(
    async (typed, options, command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const after = options.from !== void 0 ? Math.max(0, options.from - 1) : 0;
        if (options.json) {
          let lines = [];
          let left = options.limit ?? Infinity;
          if (left === 0) return;
          for await (const event of events.stream(sessionId, { afterSequence: after })) {
            lines.push(canonicalJson(event));
            left -= 1;
            if (lines.length === 500) {
              context.out(lines.join("\n"));
              lines = [];
            }
            if (left === 0) break;
          }
          if (lines.length > 0) context.out(lines.join("\n"));
          return;
        }
        const read = await events.read(sessionId, {
          ...options.from !== void 0 && { afterSequence: Math.max(0, options.from - 1) },
          ...options.limit !== void 0 && { limit: options.limit }
        });
        if (read.length === 0) return context.out(`no events for session ${sessionId}`);
        context.out(
          formatTable(
            ["SEQ", "TIME", "TYPE", "DETAILS"],
            read.map((event) => [
              String(event.sequence),
              event.timestamp,
              event.payload.type,
              summarize(event.payload)
            ])
          )
        );
      });
    }
  );
}

export {
  parseCount,
  eventsCommand
};

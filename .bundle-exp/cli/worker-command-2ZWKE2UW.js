import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/worker-command.ts
import { Command, InvalidArgumentError } from "commander";
function positiveInteger(value) {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new InvalidArgumentError("expected a whole number of at least 1");
  return count;
}
function storeGone(error) {
  return CorrexError.isInstance(error) && error.code === "postgres_connect_failed";
}
function describe(error) {
  return CorrexError.isInstance(error) ? error.message : String(error);
}
function workerCommand(context) {
  return new Command("worker").description(
    "drive runnable sessions of a shared postgres:// store (new, woken, or left by a dead worker)"
  ).option("--concurrency <count>", "most sessions driven at once", positiveInteger, 4).option(
    "--sweep-ms <ms>",
    "how often to look for sessions when no notification came",
    positiveInteger,
    1e3
  ).option(
    "--lease-ms <ms>",
    "how long a session stays this worker's without a renewal before another may take it over (default 30000, or $CORREX_LEASE_MS)",
    positiveInteger
  ).action(
    async (options, command) => {
      const location = command.optsWithGlobals().store ?? context.defaultStore;
      if (context.startWorker === void 0)
        throw new Error("this correx was built without workers");
      const stopped = new Promise((resolve) => {
        const release = context.onInterrupt(() => {
          release();
          resolve();
        });
      });
      const worker = await context.startWorker({
        location,
        concurrency: options.concurrency,
        sweepMs: options.sweepMs,
        ...options.leaseMs === void 0 ? {} : { leaseMs: options.leaseMs },
        onTaken: (sessionId) => context.out(`${sessionId} taken`),
        onStopped: (sessionId, status) => context.out(`${sessionId} stopped here: ${status}`),
        onError: (sessionId, error) => context.err(
          sessionId === null && storeGone(error) ? `correx worker: the store does not answer (${describe(error)}); retrying with backoff` : `correx worker: ${sessionId ?? "looking for sessions"}: ${describe(error)}`
        ),
        onReconnected: () => context.out("correx worker: the store answers again")
      });
      try {
        context.out(
          `correx worker: ${worker.name} driving up to ${options.concurrency} session(s)`
        );
        await stopped;
        context.out(
          `correx worker: stopping; handing back ${worker.driving().length} session(s)`
        );
        const { handedBack } = await worker.stop();
        context.out(`correx worker: stopped; handed back ${handedBack.length} session(s)`);
      } finally {
        await worker.close();
      }
    }
  );
}
export {
  workerCommand
};

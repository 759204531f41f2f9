import {
  SHUTDOWN_ACTOR,
  composeSessionHost
} from "./chunk-X25FCLQI.js";
import {
  openRunnableSessions
} from "./chunk-KZP3BAYL.js";
import {
  openPostgresSessionLocker
} from "./chunk-XT2GLDKK.js";
import "./chunk-GDQPYYGW.js";
import "./chunk-4XOSVEIW.js";
import "./chunk-CRPBL2XJ.js";
import "./chunk-KLZQSOCM.js";
import {
  openStores,
  parseStoreLocation
} from "./chunk-ORXSUEWY.js";
import "./chunk-NPIZSOGE.js";
import "./chunk-BBKXGLQ3.js";
import "./chunk-COF34Z7E.js";
import "./chunk-2XSB7GWG.js";
import "./chunk-XXOLSKOG.js";
import "./chunk-YCTECULU.js";
import {
  DEFAULT_POSTGRES_SCHEMA
} from "./chunk-XESUYX36.js";
import "./chunk-3K2LSKRX.js";
import "./chunk-5UEANXJE.js";
import "./chunk-Y6YTVGPA.js";
import "./chunk-SWJTFAUB.js";
import "./chunk-Q3CLAD7B.js";
import "./chunk-W4KNPWTK.js";
import "./chunk-3PPHKKT7.js";
import "./chunk-BF55S3NM.js";
import "./chunk-OMD473OS.js";
import "./chunk-32WDO2ZJ.js";
import "./chunk-MTLPFOPA.js";
import "./chunk-I3NCHX22.js";
import "./chunk-76ZWS4BR.js";
import "./chunk-XFVAXZIU.js";
import "./chunk-H6KIDXDK.js";
import "./chunk-R6SHVX2P.js";
import "./chunk-P2JR5UVJ.js";
import "./chunk-BEI6ZGZB.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
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

// src/main/compose-worker.ts
import { hostname } from "node:os";

// src/main/session-worker.ts
var MAX_BACKOFF_MS = 3e4;
function unreachable(error) {
  return CorrexError.isInstance(error) && error.code === "postgres_connect_failed";
}
function startSessionWorker(options) {
  const { host, runnable } = options;
  const active = /* @__PURE__ */ new Set();
  const resting = /* @__PURE__ */ new Map();
  let stopping = false;
  let filling = null;
  let again = false;
  let outage = null;
  const storeFailed = (error) => {
    if (outage === null) {
      options.onError?.(null, error);
      outage = { failures: 0, retryAt: 0 };
    }
    outage.failures += 1;
    const backoff = Math.min(MAX_BACKOFF_MS, options.sweepMs * 2 ** Math.min(outage.failures, 6));
    outage.retryAt = Date.now() + backoff;
  };
  const storeAnswered = () => {
    if (outage === null) return;
    outage = null;
    options.onReconnected?.();
  };
  const take = (sessionId) => {
    active.add(sessionId);
    void host.resume(sessionId).then((run) => {
      options.onTaken?.(sessionId);
      return run.done;
    }).then(
      (outcome) => {
        const waiting = outcome.waiting;
        if (waiting !== null && "sessionId" in waiting && waiting.sessionId !== void 0)
          resting.set(sessionId, Date.now() + options.sweepMs * 5);
        options.onStopped?.(sessionId, outcome.status);
      },
      (error) => {
        if (CorrexError.isInstance(error) && error.code === "session_busy") {
          resting.set(sessionId, Date.now() + options.sweepMs);
          return;
        }
        if (CorrexError.isInstance(error) && (error.code === "driver_fenced" || error.code === "driver_lease_lost")) {
          resting.set(sessionId, Date.now() + options.sweepMs);
          return;
        }
        resting.set(sessionId, Date.now() + options.sweepMs * 5);
        if (unreachable(error)) storeFailed(error);
        else options.onError?.(sessionId, error);
      }
    ).finally(() => {
      active.delete(sessionId);
      wake();
    });
  };
  const fill = async () => {
    const now = Date.now();
    if (outage !== null && now < outage.retryAt) return;
    for (const [sessionId, until] of resting) if (until <= now) resting.delete(sessionId);
    const room = options.concurrency - active.size;
    if (room <= 0) return;
    const free = await runnable.free(room + active.size + resting.size);
    storeAnswered();
    for (let index = free.length - 1; index > 0; index--) {
      const other = Math.floor(Math.random() * (index + 1));
      [free[index], free[other]] = [free[other], free[index]];
    }
    for (const sessionId of free) {
      if (stopping || active.size >= options.concurrency) return;
      if (active.has(sessionId) || resting.has(sessionId)) continue;
      take(sessionId);
    }
  };
  const wake = () => {
    if (stopping) return;
    if (filling !== null) {
      again = true;
      return;
    }
    filling = fill().catch(
      (error) => unreachable(error) ? storeFailed(error) : options.onError?.(null, error)
    ).finally(() => {
      filling = null;
      if (again) {
        again = false;
        wake();
      }
    });
  };
  const listener = runnable.listen(wake);
  const sweep = setInterval(() => {
    listener.ensure();
    wake();
  }, options.sweepMs);
  wake();
  return {
    name: options.name,
    driving: () => [...active],
    async stop() {
      stopping = true;
      clearInterval(sweep);
      await listener.close();
      await filling;
      const mine = host.running();
      await host.shutdown();
      const handedBack = [];
      for (const sessionId of mine) {
        const { state } = await replay(options.store, sessionProjection, sessionId);
        if (state.status !== "paused" || !await pausedByShutdown(options.store, sessionId))
          continue;
        await recordCommand(options, options.store, sessionId, {
          type: "resume",
          by: options.name
        });
        handedBack.push(sessionId);
      }
      return { handedBack };
    }
  };
}
async function pausedByShutdown(store, sessionId) {
  let by = null;
  for await (const event of store.stream(sessionId))
    if (event.payload.type === "orchestration_paused") by = event.payload.by;
  return by === SHUTDOWN_ACTOR;
}

// src/main/compose-worker.ts
var WorkerStoreError = class extends CorrexError {
  constructor(location) {
    super(
      "store_location_invalid",
      `correx worker needs a postgres:// store (got "${location}"): workers share one PostgreSQL log`
    );
  }
};
function driverName(role) {
  return `correx ${role} ${hostname()}:${process.pid}`;
}
async function composeWorker(options) {
  const parsed = parseStoreLocation(options.location);
  if (parsed.kind !== "postgres") throw new WorkerStoreError(options.location);
  const name = driverName("worker");
  const stores = await openStores(options.location, {
    applicationName: name,
    maxConnections: Math.max(10, options.concurrency * 2)
  });
  const locker = openPostgresSessionLocker(parsed.url, DEFAULT_POSTGRES_SCHEMA, {
    driver: name,
    ...options.leaseMs === void 0 ? {} : { leaseMs: options.leaseMs }
  });
  const runnable = openRunnableSessions(parsed.url, name);
  const host = await composeSessionHost({
    store: stores.events,
    locker,
    correxHome: options.correxHome,
    protectedPaths: [],
    clock: options.clock,
    ids: options.ids,
    env: options.env,
    notice: options.notice,
    ...options.onEvent === void 0 ? {} : { onEvent: options.onEvent }
  });
  const worker = startSessionWorker({
    name,
    host,
    runnable: runnable.sessions,
    store: stores.events,
    clock: options.clock,
    ids: options.ids,
    concurrency: options.concurrency,
    sweepMs: options.sweepMs,
    ...options.onTaken === void 0 ? {} : { onTaken: options.onTaken },
    ...options.onStopped === void 0 ? {} : { onStopped: options.onStopped },
    ...options.onError === void 0 ? {} : { onError: options.onError },
    ...options.onReconnected === void 0 ? {} : { onReconnected: options.onReconnected }
  });
  return {
    ...worker,
    async close() {
      await locker.close();
      await runnable.close();
      await stores.close();
    }
  };
}
export {
  WorkerStoreError,
  composeWorker,
  driverName
};

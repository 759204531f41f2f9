import {
  describeLease,
  leaseColumns
} from "./chunk-ZAILTHT4.js";
import {
  drivenStatus
} from "./chunk-DUKFPFLL.js";
import {
  parseCount
} from "./chunk-JPE2QVXK.js";
import {
  formatJson,
  formatTable
} from "./chunk-5MQ6PZFE.js";
import "./chunk-A2ILMMH3.js";
import {
  storeLocation,
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  replay,
  sessionProjection,
  sessionSpendProjection,
  spendOf
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/sessions-command.ts
import { Command } from "commander";
function clip(text, length) {
  return text.length <= length ? text : `${text.slice(0, length - 1)}\u2026`;
}
var rowProjection = {
  name: "session-row",
  version: 1,
  initial: () => ({
    session: sessionProjection.initial(),
    spend: sessionSpendProjection.initial()
  }),
  evolve: (state, event) => ({
    session: sessionProjection.evolve(state.session, event),
    spend: sessionSpendProjection.evolve(state.spend, event)
  })
};
var SNAPSHOT_AFTER = 200;
async function sessionRow(events, snapshots, sessionId) {
  const snapshot = await snapshots?.load(sessionId, rowProjection.name);
  const from = snapshot?.projectionVersion === rowProjection.version ? { state: snapshot.state, sequence: snapshot.sequence } : void 0;
  const { state, sequence } = await replay(
    events,
    rowProjection,
    sessionId,
    from === void 0 ? {} : { from }
  );
  if (snapshots !== void 0 && sequence - (from?.sequence ?? 0) >= SNAPSHOT_AFTER)
    await snapshots.save({
      sessionId,
      projection: rowProjection.name,
      projectionVersion: rowProjection.version,
      sequence,
      state
    }).catch(() => void 0);
  return state;
}
function cost(usd) {
  return usd === null ? "-" : `$${usd.toFixed(4)}`;
}
function sessionsCommand(context) {
  return new Command("sessions").description("list the newest sessions in the store with their status, stage and task").option("--limit <count>", "at most this many, newest first (default 50)", parseCount).option("--json", "print JSON").action(async (options, command) => {
    await withStore(context, command, async ({ events, snapshots }) => {
      const all = await events.listSessions();
      const newest = all.slice(-(options.limit ?? 50)).reverse();
      const drivers = await context.sessionDrivers?.(storeLocation(context, command)) ?? null;
      const rows = [];
      for (const summary of newest) {
        const folded = await sessionRow(events, snapshots, summary.sessionId);
        const state = folded.session;
        const spend = spendOf(folded.spend);
        rows.push({
          ...summary,
          status: state.status,
          /** What the table shows: `interrupted (nobody driving)` for a running log nobody drives. */
          shownStatus: await drivenStatus(context, command, summary.sessionId, state.status),
          stage: state.activeStage?.stageId ?? state.nextStage?.stageId ?? state.lastStageId,
          pendingApprovals: state.pendingApprovals.length,
          task: state.task,
          tokens: spend.tokens,
          /** US dollars by the recorded profiles' prices; null when none has prices. */
          cost: spend.costUsd,
          ...drivers === null ? {} : leaseColumns(drivers.get(summary.sessionId))
        });
      }
      if (options.json)
        return context.out(
          formatJson(
            rows.map(({ shownStatus, ...row }) => ({
              ...row,
              interrupted: shownStatus !== row.status
            }))
          )
        );
      if (rows.length === 0) return context.out("no sessions yet");
      const priced = rows.some((row) => row.cost !== null);
      context.out(
        formatTable(
          [
            "SESSION",
            "STATUS",
            "STAGE",
            "EVENTS",
            "LAST EVENT",
            ...priced ? ["COST"] : [],
            ...drivers === null ? [] : ["DRIVER", "LEASE"],
            "TASK"
          ],
          rows.map((row) => [
            row.sessionId,
            row.pendingApprovals > 0 ? `${row.shownStatus} (${row.pendingApprovals} to approve)` : row.shownStatus,
            row.stage ?? "-",
            String(row.lastSequence),
            row.lastTimestamp,
            ...priced ? [cost(row.cost)] : [],
            ...drivers === null ? [] : [row.driver ?? "-", describeLease(leaseColumns(drivers.get(row.sessionId)))],
            clip(row.task ?? "", 60)
          ])
        )
      );
      if (all.length > newest.length)
        context.out(
          `(${all.length - newest.length} older sessions not shown; --limit N shows more)`
        );
    });
  });
}
export {
  sessionsCommand
};

import { describeLease, leaseColumns } from '../../session-lease.js';
import { Command } from 'commander';
import { replay } from '../../../core/events/replay.js';
import type { CorrexEvent, CorrexEventStore } from '../../../core/event-catalog.js';
import type { JsonValue } from '../../../core/events/canonical-json.js';
import type { SnapshotStore } from '../../../core/events/snapshot-store.js';
import type { Projection } from '../../../core/events/projection.js';
import { sessionSpendProjection, spendOf, type SpendState } from '../../../core/kernel/index.js';
import { sessionProjection, type SessionState } from '../../../core/sessions/session-projection.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson, formatTable } from '../format.js';
import { storeLocation, withStore } from '../with-store.js';
import { drivenStatus } from '../driven-status.js';
import { parseCount } from './events-command.js';

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** A list row's fold: where the session stands and what it spent, in one pass over its log. */
type RowState = {
  readonly session: SessionState;
  readonly spend: SpendState;
};
const rowProjection: Projection<RowState, CorrexEvent['payload']> = {
  name: 'session-row',
  version: 1,
  initial: () => ({
    session: sessionProjection.initial(),
    spend: sessionSpendProjection.initial(),
  }),
  evolve: (state, event) => ({
    session: sessionProjection.evolve(state.session, event),
    spend: sessionSpendProjection.evolve(state.spend, event),
  }),
};

/** Events folded past a row's snapshot before the listing saves a newer one. */
const SNAPSHOT_AFTER = 200;

/**
 * A session's row: its snapshot (kept in the store beside the log) plus the events since, so a
 * listing reads a maintained summary, not each session's history from its first event. The
 * snapshot is refreshed once the tail grows long; a store that refuses the write only costs the
 * next listing a longer fold.
 */
async function sessionRow(
  events: CorrexEventStore,
  snapshots: SnapshotStore | undefined,
  sessionId: string,
): Promise<RowState> {
  const snapshot = await snapshots?.load(sessionId, rowProjection.name);
  const from =
    snapshot?.projectionVersion === rowProjection.version
      ? { state: snapshot.state as unknown as RowState, sequence: snapshot.sequence }
      : undefined;
  const { state, sequence } = await replay(
    events,
    rowProjection,
    sessionId,
    from === undefined ? {} : { from },
  );
  if (snapshots !== undefined && sequence - (from?.sequence ?? 0) >= SNAPSHOT_AFTER)
    await snapshots
      .save({
        sessionId,
        projection: rowProjection.name,
        projectionVersion: rowProjection.version,
        sequence,
        state: state as unknown as JsonValue,
      })
      .catch(() => undefined);
  return state;
}

function cost(usd: number | null): string {
  return usd === null ? '-' : `$${usd.toFixed(4)}`;
}

/**
 * `correx sessions`: the newest sessions with where each stands (status, stage, what it waits
 * for, task), and their cost when a profile has prices. Each listed session's log is folded, so the listing is bounded by `--limit`.
 */
export function sessionsCommand(context: CommandContext): Command {
  return new Command('sessions')
    .description('list the newest sessions in the store with their status, stage and task')
    .option('--limit <count>', 'at most this many, newest first (default 50)', parseCount)
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean; limit?: number }, command: Command) => {
      await withStore(context, command, async ({ events, snapshots }) => {
        const all = await events.listSessions();
        const newest = all.slice(-(options.limit ?? 50)).reverse();
        const drivers = (await context.sessionDrivers?.(storeLocation(context, command))) ?? null;
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
            ...(drivers === null ? {} : leaseColumns(drivers.get(summary.sessionId))),
          });
        }
        if (options.json)
          return context.out(
            formatJson(
              rows.map(({ shownStatus, ...row }) => ({
                ...row,
                interrupted: shownStatus !== row.status,
              })),
            ),
          );
        if (rows.length === 0) return context.out('no sessions yet');
        const priced = rows.some((row) => row.cost !== null);
        context.out(
          formatTable(
            [
              'SESSION',
              'STATUS',
              'STAGE',
              'EVENTS',
              'LAST EVENT',
              ...(priced ? ['COST'] : []),
              ...(drivers === null ? [] : ['DRIVER', 'LEASE']),
              'TASK',
            ],
            rows.map((row) => [
              row.sessionId,
              row.pendingApprovals > 0
                ? `${row.shownStatus} (${row.pendingApprovals} to approve)`
                : row.shownStatus,
              row.stage ?? '-',
              String(row.lastSequence),
              row.lastTimestamp,
              ...(priced ? [cost(row.cost)] : []),
              ...(drivers === null
                ? []
                : [row.driver ?? '-', describeLease(leaseColumns(drivers.get(row.sessionId)))]),
              clip(row.task ?? '', 60),
            ]),
          ),
        );
        if (all.length > newest.length)
          context.out(
            `(${all.length - newest.length} older sessions not shown; --limit N shows more)`,
          );
      });
    });
}

import { Command } from 'commander';
import { replay } from '../../../core/events/replay.js';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson, formatTable } from '../format.js';
import { storeLocation, withStore } from '../with-store.js';
import { drivenStatus } from '../driven-status.js';
import { parseCount } from './events-command.js';

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/**
 * `correx sessions`: the newest sessions with where each stands (status, stage, what it waits
 * for, task). Each listed session's log is folded, so the listing is bounded by `--limit`.
 */
export function sessionsCommand(context: CommandContext): Command {
  return new Command('sessions')
    .description('list the newest sessions in the store with their status, stage and task')
    .option('--limit <count>', 'at most this many, newest first (default 50)', parseCount)
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean; limit?: number }, command: Command) => {
      await withStore(context, command, async ({ events }) => {
        const all = await events.listSessions();
        const newest = all.slice(-(options.limit ?? 50)).reverse();
        const drivers = (await context.sessionDrivers?.(storeLocation(context, command))) ?? null;
        const rows = [];
        for (const summary of newest) {
          const { state } = await replay(events, sessionProjection, summary.sessionId);
          rows.push({
            ...summary,
            status: state.status,
            /** What the table shows: `interrupted (nobody driving)` for a running log nobody drives. */
            shownStatus: await drivenStatus(context, command, summary.sessionId, state.status),
            stage: state.activeStage?.stageId ?? state.nextStage?.stageId ?? state.lastStageId,
            pendingApprovals: state.pendingApprovals.length,
            task: state.task,
            ...(drivers === null ? {} : { driver: drivers.get(summary.sessionId) ?? null }),
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
        context.out(
          formatTable(
            [
              'SESSION',
              'STATUS',
              'STAGE',
              'EVENTS',
              'LAST EVENT',
              ...(drivers === null ? [] : ['DRIVER']),
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
              ...(drivers === null ? [] : [row.driver ?? '-']),
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

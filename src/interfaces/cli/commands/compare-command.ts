import { Command } from 'commander';
import type { CommandContext } from '../cli-context.js';
import { formatCost, formatJson, formatTable } from '../format.js';
import { storedText } from '../headless-run.js';
import type { ComparedSide, SessionComparison } from '../../session-comparison.js';
import { resolveSessionRef } from '../session-ref.js';
import { withStore } from '../with-store.js';

/**
 * `correx compare <a> <b>`: where two recorded sessions (a parent and its fork, two runs of one
 * task) first differ, then side by side what each came to, from their logs alone.
 */
export function compareCommand(context: CommandContext): Command {
  return new Command('compare')
    .description(
      'where two sessions first differ, then side by side: outcome, checks, files, tokens, cost, approvals, time',
    )
    .argument('<a>', 'a session id (or a unique start of one)')
    .argument('<b>', 'another session id')
    .option('--json', 'print the comparison as JSON')
    .action(
      async (typedA: string, typedB: string, options: { json?: boolean }, command: Command) => {
        const { compareStoredSessions } = await import('../../stored-session-comparison.js');
        const { nodeSha256 } = await import('../../../infrastructure/system/node-sha256.js');
        await withStore(context, command, async ({ events }) => {
          const comparison = await compareStoredSessions(
            events,
            {
              a: await resolveSessionRef(events, typedA, command),
              b: await resolveSessionRef(events, typedB, command),
            },
            storedText(context.correxHome),
            nodeSha256,
          );
          if (options.json) context.out(formatJson(comparison));
          else context.out(comparisonLines(comparison).join('\n'));
        });
      },
    );
}

function comparisonLines(comparison: SessionComparison): string[] {
  const { a, b } = comparison;
  const first = comparison.firstDifference;
  const lines = [
    first === null
      ? 'first difference  none: both logs record the same events (ids, times and hashes aside)'
      : `first difference  #${first.sequence}: ${first.a ?? '(log ended)'} | ${first.b ?? '(log ended)'}${first.fields.length === 0 ? '' : ` (${first.fields.join(', ')})`}`,
    `configuration     ${comparison.configurationDiffers.length === 0 ? 'the same' : `differs in ${comparison.configurationDiffers.join(', ')}`}`,
    '',
  ];
  const row = (name: string, cell: (side: ComparedSide) => string) => [name, cell(a), cell(b)];
  lines.push(
    formatTable(
      ['', `a ${a.sessionId}`, `b ${b.sessionId}`],
      [
        row('task', (side) => side.task ?? '-'),
        row('models', (side) => side.models.join(', ') || '-'),
        row('outcome', (side) =>
          side.failure === null ? side.status : `${side.status} (${side.failure})`,
        ),
        row(
          'checks',
          (side) =>
            side.checks
              .map((check) => `${check.name} ${check.passed ? 'passed' : 'FAILED'}`)
              .join(', ') || '-',
        ),
        row(
          'files changed',
          (side) =>
            side.filesChanged
              .map(
                (file) =>
                  `${file.path} ${file.change}${file.added === null ? '' : ` +${file.added} -${file.removed}`}`,
              )
              .join(', ') || '-',
        ),
        row('tokens', (side) => `${side.tokens.input} in, ${side.tokens.output} out`),
        row('cost', (side) => (side.cost === null ? '-' : formatCost(side.cost))),
        row('approvals asked', (side) => String(side.approvalsAsked)),
        row('policy blocks', (side) => String(side.policyBlocks)),
        row('events', (side) => String(side.events)),
        row('time', (side) => `${(side.durationMs / 1000).toFixed(1)} s`),
      ],
    ),
  );
  if (comparison.files.length > 0) {
    lines.push('', 'files (a → b, final contents)');
    for (const file of comparison.files) {
      lines.push(
        `  ${file.path}  a ${file.a}, b ${file.b}: ${file.same ? 'same bytes' : file.diff === null ? 'differ (bytes not kept)' : 'differ'}`,
      );
      if (!file.same && file.diff !== null)
        lines.push(
          `    --- a/${file.path}`,
          `    +++ b/${file.path}`,
          ...file.diff.map((line) => `    ${line}`),
        );
    }
  }
  return lines;
}

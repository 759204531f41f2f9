import { Command } from 'commander';
import type { CorrexEvent } from '../../../core/event-catalog.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { withStore } from '../with-store.js';
import { createEventLines } from '../paired-event-lines.js';
import { demoProblem } from './demo-progress.js';

export function demoCommand(context: CommandContext): Command {
  return new Command('demo')
    .description(
      'fix a bug in a bundled sample project with a scripted model: no model, key or network needed',
    )
    .option(
      '--workspace <dir>',
      'copy the sample here (an empty or new folder; default: a temp folder)',
    )
    .option('--json', 'print only a JSON summary at the end')
    .action(async (options: { workspace?: string; json?: boolean }, command: Command) => {
      await withStore(
        context,
        command,
        async ({ events, location }) => {
          // Loaded on use: `--help` does not pay for the kernel, the tools and the sample.
          const { runDemo } = await import('./demo-run.js');
          const view = createEventLines();
          // OTEL_TRACES_EXPORTER=otlp sends the demo's trace too, delivered before the exit.
          const telemetry = await context.telemetry?.();
          const print =
            options.json === true
              ? undefined
              : (event: CorrexEvent) => {
                  for (const line of view.lines(event)) context.out(line);
                };
          const onEvent =
            telemetry === undefined
              ? print
              : (event: CorrexEvent) => {
                  print?.(event);
                  telemetry.onEvent(event);
                };
          const report = await runDemo({
            store: events,
            correxHome: context.correxHome,
            clock: context.clock,
            ids: context.ids,
            ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
            ...(onEvent === undefined ? {} : { onEvent }),
          });
          await telemetry?.settled();
          const count = (await events.read(report.sessionId)).length;
          const problem = demoProblem(report);
          if (options.json) {
            context.out(
              formatJson({ ...report, events: count, store: location, ok: problem === null }),
            );
          } else {
            context.out('');
            context.out(
              `session   ${report.sessionId} (${report.status}, ${count} events in ${location})`,
            );
            context.out(`workspace ${report.workspace}`);
            context.out(`tests     node --test ${report.testsPass ? 'passes' : 'FAILS'}`);
            if (!report.testsPass)
              context.out(report.testOutput.trimEnd().split('\n').slice(-20).join('\n'));
            context.out(
              `next      correx show ${report.sessionId}  |  correx replay ${report.sessionId} --verify  |  correx serve`,
            );
          }
          if (problem !== null) {
            context.err(`correx: demo failed: ${problem}`);
            context.fail(1);
          }
        },
        { create: true },
      );
    });
}

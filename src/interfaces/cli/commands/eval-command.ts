import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import { UnknownSessionError } from '../../../core/kernel/index.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { resolveSessionRef } from '../session-ref.js';
import { withStore } from '../with-store.js';
import { printReplayGate } from './eval-replay-output.js';
import { evalRunCommand } from './eval-run-command.js';

/** `correx eval replay|run`: regression gates over recorded sessions, and model evaluations. */
export function evalCommand(context: CommandContext): Command {
  const replay = new Command('replay')
    .description(
      'a regression gate: re-derive recorded sessions byte for byte with no model; exit 1 at any divergence',
    )
    .argument('[sessions...]', 'session ids in the store (or unique starts of them)')
    .option(
      '--corpus <dir>',
      'replay every session of a folder of NDJSON logs (`correx events <id> --json` writes one)',
    )
    .option('--json', 'print the report as JSON')
    .action(
      async (typed: string[], options: { corpus?: string; json?: boolean }, command: Command) => {
        const { replayGate, joinReports } = await import('../../eval/replay-gate.js');
        const { nodeSha256 } = await import('../../../infrastructure/system/node-sha256.js');
        if ((options.corpus === undefined) === (typed.length === 0))
          throw new CorrexError('usage', 'give session ids or --corpus <dir>, one of the two');
        const started = Date.now();
        const cpu = process.cpuUsage();
        let report;
        let problems: readonly {
          file: string;
          sessionId: string | null;
          sequence: number | null;
          reason: string;
        }[] = [];
        if (options.corpus !== undefined) {
          const { readCorpusFolder, loadCorpusFile } =
            await import('../../../infrastructure/eval/session-corpus-folder.js');
          const corpus = readCorpusFolder(options.corpus);
          const found = [...corpus.problems];
          const parts = [];
          // Each file in a store of its own: ids need only be unique within one recording.
          for (const file of corpus.files) {
            const loaded = await loadCorpusFile(corpus.folder, file);
            found.push(...loaded.problems);
            const broken = new Set(loaded.problems.map((problem) => problem.sessionId));
            parts.push(
              await replayGate(
                loaded.store,
                loaded.sessions
                  .filter((session) => !broken.has(session.sessionId))
                  .map((session) => ({ sessionId: session.sessionId, source: file })),
                nodeSha256,
              ),
            );
            await loaded.store.close();
          }
          problems = found;
          report = joinReports(parts);
        } else {
          report = await withStore(context, command, async ({ events, location }) => {
            const sessions = [];
            for (const ref of typed) {
              const sessionId = await resolveSessionRef(events, ref, command);
              if ((await events.lastSequence(sessionId)) === 0)
                throw new UnknownSessionError(sessionId);
              sessions.push({ sessionId, source: location });
            }
            return replayGate(events, sessions, nodeSha256);
          });
        }
        const used = process.cpuUsage(cpu);
        const timing = {
          wallMs: Date.now() - started,
          cpuMs: Math.round((used.user + used.system) / 1000),
        };
        const ok = report.ok && problems.length === 0;
        if (options.json) context.out(formatJson({ ...report, ok, problems, ...timing }));
        else for (const line of printReplayGate(report, problems, timing)) context.out(line);
        if (!ok) context.fail(1);
      },
    );
  return new Command('eval')
    .description(
      'regression gates over recorded sessions, and evaluations of models on task suites',
    )
    .addCommand(replay)
    .addCommand(evalRunCommand(context));
}

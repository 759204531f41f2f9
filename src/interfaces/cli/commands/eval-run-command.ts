import { Command, InvalidArgumentError } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import type { CommandContext } from '../cli-context.js';
import { formatCost, formatJson, formatTable } from '../format.js';
import { withStore } from '../with-store.js';
import { resolveSessionRef } from '../session-ref.js';
import { forkOnHost } from '../../fork-on-host.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';
import type { EvalReport, EvalRunResult } from './eval-run.js';
import { evalReportDirectory, saveEvalReport } from '../../eval/eval-report-archive.js';

function parseRepeat(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 100)
    throw new InvalidArgumentError('a whole number from 1 to 100');
  return count;
}

/** `correx eval run <suite> --model P [--model Q …] [--repeat N]`: pass rates of models on a suite. */
export function evalRunCommand(context: CommandContext): Command {
  return new Command('run')
    .description(
      'run each task of a suite (`builtin`, or a folder with suite.json) for each model in auto mode under the sandbox, score it with the suite checks, and report pass rates',
    )
    .argument('<suite>', '`builtin` or a suite folder')
    .requiredOption(
      '--model <model>',
      'a model to evaluate, repeatable: a model profile of harness.yaml, or scripted:<name> (plays <suite>/models/<name>/<task>.json)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--repeat <count>', 'runs of each task per model', parseRepeat, 1)
    .option(
      '--task <id>',
      'run only this task of the suite (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--from <session@point>',
      'start each run as a fork of a recorded session at a point (a sequence, stage:<id> or call:<id>, as `correx fork --at`): only the suffix is live; needs one task (--task) whose checks score it',
      parseFrom,
    )
    .option('--workdir <dir>', 'where the runs’ workspace copies go (default: a temporary folder)')
    .option('--json', 'print the report as JSON')
    .option(
      '--no-save',
      'do not save the report under $CORREX_HOME/evals (where `correx serve` shows it on the web page)',
    )
    .action(
      async (
        suite: string,
        options: {
          model: string[];
          repeat: number;
          workdir?: string;
          json?: boolean;
          save: boolean;
          task?: string[];
          from?: { sessionId: string; at: string };
        },
        command: Command,
      ) => {
        const { runEval } = await import('./eval-run.js');
        await withStore(
          context,
          command,
          async ({ events, location }) => {
            const configured = options.model.filter((model) => !model.startsWith('scripted:'));
            // Configured profiles run as `correx run` runs them: the host of this process.
            const host =
              configured.length === 0
                ? undefined
                : await context.createSessionHost({ store: events, location });
            try {
              if (host !== undefined) {
                const { modelProfiles } = await host.options();
                const unknown = configured.filter((model) => !modelProfiles.includes(model));
                if (unknown.length > 0)
                  throw new CorrexError(
                    'usage',
                    `no model profile ${unknown.join(', ')} (configured: ${modelProfiles.join(', ') || 'none'}; or scripted:<name>)`,
                  );
              }
              const from =
                options.from === undefined
                  ? undefined
                  : {
                      ...options.from,
                      sessionId: await resolveSessionRef(events, options.from.sessionId, command),
                    };
              const startedAt = context.clock.now();
              const report = await runEval({
                suite,
                models: options.model,
                repeat: options.repeat,
                ...(options.task === undefined ? {} : { tasks: options.task }),
                ...(from === undefined ? {} : { from }),
                store: events,
                correxHome: context.correxHome,
                clock: context.clock,
                ids: context.ids,
                ...(options.workdir === undefined ? {} : { workdir: options.workdir }),
                ...(host === undefined
                  ? {}
                  : {
                      startConfigured: async (run: {
                        task: string;
                        workspace: string;
                        model: string;
                      }) => {
                        const hosted = await host.start({
                          task: run.task,
                          workspace: run.workspace,
                          modelProfile: run.model,
                          mode: 'auto',
                        });
                        const outcome = await hosted.done;
                        return { sessionId: hosted.sessionId, status: outcome.status };
                      },
                      forkConfigured: async (run: {
                        from: { sessionId: string; at: string };
                        workspace: string;
                        model: string;
                      }) => {
                        const fork = await forkOnHost(
                          host,
                          {
                            store: events,
                            preimages: createPreimageStore(preimageDirectory(context.correxHome)),
                            clock: context.clock,
                            ids: context.ids,
                            sha256: nodeSha256,
                          },
                          {
                            parentSessionId: run.from.sessionId,
                            at: run.from.at,
                            forkSessionId: context.ids.next(),
                            workspace: run.workspace,
                            mode: 'auto',
                            model: run.model,
                            by: context.user,
                          },
                        );
                        return {
                          sessionId: fork.sessionId,
                          drive: async () => {
                            const hosted = await host.resume(fork.sessionId);
                            return { status: (await hosted.done).status };
                          },
                        };
                      },
                    }),
                ...(options.json === true
                  ? {}
                  : { onRun: (run: EvalRunResult) => context.out(runLine(run)) }),
              });
              const record = {
                id: context.ids.next(),
                startedAt,
                finishedAt: context.clock.now(),
                ...report,
              };
              const saved = options.save
                ? saveEvalReport(evalReportDirectory(context.correxHome), record)
                : null;
              if (options.json) context.out(formatJson(options.save ? record : report));
              else
                context.out(
                  `\n${reportTable(report)}${saved === null ? '' : `\n\neval run ${record.id} saved to ${saved}`}`,
                );
              if (report.runs.some((run) => !run.replays)) context.fail(1);
            } finally {
              await host?.shutdown();
            }
          },
          { create: true },
        );
      },
    );
}

/** `<session>@<point>`: the session (an id or a prefix) and a point as `correx fork --at` takes it. */
function parseFrom(value: string): { sessionId: string; at: string } {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1)
    throw new InvalidArgumentError(
      '<session>@<point>, e.g. 01a23c6b@25, 01a23c6b@stage:implement or 01a23c6b@call:3',
    );
  return { sessionId: value.slice(0, at), at: value.slice(at + 1) };
}

function runLine(run: EvalRunResult): string {
  return `${run.passed ? '✓' : '✗'} ${run.model}  ${run.task}#${run.repeat}  ${run.status}  session ${run.sessionId}${run.forkedFrom === undefined ? '' : ` (fork of ${run.forkedFrom.sessionId} at #${run.forkedFrom.atSequence})`}${run.workspaceGit === undefined ? '' : ` (workspace ${run.workspaceGit.ref} = ${run.workspaceGit.commit.slice(0, 12)})`}${run.replays ? '' : '  REPLAY DIVERGES'}${run.failures.length === 0 ? '' : `  (${run.failures.join('; ')})`}`;
}

function reportTable(report: EvalReport): string {
  return formatTable(
    ['model', 'pass rate', 'tokens', 'cost', 'time', 'approvals', 'policy blocks'],
    report.models.map((model) => [
      model.model,
      `${model.passed}/${model.runs} (${Math.round(model.passRate * 100)}%)`,
      `${model.tokens.input} in, ${model.tokens.output} out`,
      model.cost === null ? '-' : formatCost(model.cost),
      `${(model.durationMs / 1000).toFixed(1)} s`,
      String(model.approvalsWouldAsk),
      String(model.policyBlocks),
    ]),
  );
}

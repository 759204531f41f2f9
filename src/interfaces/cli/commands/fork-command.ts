import { Command, Option } from 'commander';
import { OperatorModeSchema, type OperatorMode } from '../../../core/approvals/approval-tier.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';
import { forkOnHost } from '../../fork-on-host.js';
import type { CommandContext } from '../cli-context.js';
import { formatEventLine } from '../event-line.js';
import { JSON_HELP, WAIT_HELP, type HeadlessOptions } from '../headless-run.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { drive } from './run-command.js';

type ForkOptions = HeadlessOptions & {
  at: string;
  model?: string;
  profile?: string[];
  policy?: string;
  workflow?: string;
  mode?: OperatorMode;
  workspace?: string;
  allowMissing?: boolean;
};

/** The `--at` forms, for help and errors. */
export const FORK_AT_HELP =
  'where to fork: an event sequence (25), a stage (stage:implement, stage:implement#2 for its second attempt, or the bare stage id: the point before it started), or a tool call (call:<callId>, or call:<n> for the n-th proposed call: the point before it was proposed)';

/**
 * `correx fork <session> --at <seq|stage|call>`: a new session that starts with the parent's
 * events up to that point, in a workspace rebuilt as it was there, and goes on live from there
 * (another model, profiles, policy, workflow or mode), driven here like `correx resume`.
 */
export function forkCommand(context: CommandContext): Command {
  return new Command('fork')
    .description(
      'fork a session at one of its events, stages or calls: a new session with its events up to there, its workspace rebuilt as it was then, going on live (optionally on another model, policy, workflow or mode)',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .requiredOption('--at <seq|stage|call>', FORK_AT_HELP)
    .option(
      '--model <profile>',
      'a model profile from harness.yaml to go on with (runs every stage)',
    )
    .option(
      '--profile <profile>',
      'a model profile from harness.yaml the fork routes among (repeatable; each stage gets the eligible one of highest priority, as a run without --model)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--policy <file>',
      'a harness.yaml or policy document the fork runs under (correx’s home, the store and .git stay never writable)',
    )
    .option(
      '--workflow <name|file>',
      'a workflow from harness.yaml or a workflow YAML file to go on with (it must have the stage the fork is in)',
    )
    .addOption(
      new Option('--mode <mode>', 'approval mode of the fork (default: the parent’s)').choices(
        OperatorModeSchema.options,
      ),
    )
    .option(
      '--workspace <dir>',
      'where the rebuilt workspace goes (default: <parent workspace>-fork-<id> beside it)',
    )
    .option(
      '--allow-missing',
      'fork even when some files cannot be rebuilt (their content at the event was never kept); they are left as the parent’s workspace holds them now and named in session_forked',
    )
    .option('--json', JSON_HELP)
    .option('--wait-for-approval [duration]', WAIT_HELP)
    .addHelpText(
      'after',
      '\nExit codes as `correx run`; a fork point inside an open effect, an unknown stage or call,\nor a workspace that cannot be rebuilt, is refused (exit 1) before anything is recorded or\nwritten; an unknown profile, policy file or workflow too (exit 2).',
    )
    .action(async (typed: string | undefined, options: ForkOptions, command: Command) => {
      await drive(context, command, options, async (host, store, headless) => {
        const parentId = await resolveSessionRef(store, typed, command);
        // The fork's mode is checked before anything is recorded (prompt mode needs a person).
        for (const event of await store.read(parentId, { limit: 10 }))
          if (event.payload.type === 'session_created')
            headless.checkMode(options.mode ?? event.payload.mode);
        const forkId = context.ids.next();
        const human = options.json === true ? context.err : context.out;
        const fork = await forkOnHost(
          host,
          {
            store,
            preimages: createPreimageStore(preimageDirectory(context.correxHome)),
            clock: context.clock,
            ids: context.ids,
            sha256: nodeSha256,
          },
          {
            parentSessionId: parentId,
            at: options.at,
            forkSessionId: forkId,
            by: context.user,
            ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
            ...(options.mode === undefined ? {} : { mode: options.mode }),
            ...(options.model === undefined ? {} : { model: options.model }),
            ...(options.profile === undefined ? {} : { profiles: options.profile }),
            ...(options.policy === undefined ? {} : { policyFile: options.policy }),
            ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
            ...(options.allowMissing === true ? { allowMissing: true } : {}),
          },
        );
        human(
          `fork ${fork.sessionId} of ${parentId} at #${fork.atSequence}${fork.named === `#${fork.atSequence}` ? '' : ` (before ${fork.named})`} (parent hash ${fork.parentHash.slice(0, 12)}): ${fork.copied} events copied, workspace ${fork.workspace} rebuilt (${fork.restored.length} files restored)`,
        );
        for (const path of fork.missing)
          human(`  not rebuilt (no content recorded at #${fork.atSequence}): ${path}`);
        for (const event of await store.read(fork.sessionId, { afterSequence: fork.copied }))
          if (event.payload.type === 'session_forked') human(formatEventLine(event) ?? '');
        headless.follow(fork.sessionId, fork.copied);
        return host.resume(fork.sessionId);
      });
    });
}

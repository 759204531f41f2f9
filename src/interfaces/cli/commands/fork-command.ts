import { Command, Option } from 'commander';
import { OperatorModeSchema, type OperatorMode } from '../../../core/approvals/approval-tier.js';
import { CorrexError } from '../../../core/base/correx-error.js';
import { createInferenceRouter } from '../../../core/inference/inference-router.js';
import type { KernelConfig } from '../../../core/kernel/index.js';
import { loadHarnessConfig } from '../../../infrastructure/config/load-harness-config.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';
import { forkSession } from '../../session-fork.js';
import type { CommandContext } from '../cli-context.js';
import { formatEventLine } from '../event-line.js';
import { JSON_HELP, WAIT_HELP, type HeadlessOptions } from '../headless-run.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { parseCount } from './events-command.js';
import { drive } from './run-command.js';

type ForkOptions = HeadlessOptions & {
  at: number;
  model?: string;
  mode?: OperatorMode;
  workspace?: string;
  allowMissing?: boolean;
};

/**
 * `correx fork <session> --at <seq>`: a new session that starts with the parent's events up to
 * `seq`, in a workspace rebuilt as it was there, and goes on live from there (another model,
 * another mode), driven here like `correx resume`.
 */
export function forkCommand(context: CommandContext): Command {
  return new Command('fork')
    .description(
      'fork a session at one of its events: a new session with its events up to there, its workspace rebuilt as it was then, going on live (optionally on another model or mode)',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .requiredOption(
      '--at <sequence>',
      'the event to fork after (one where the session waits for its next decision)',
      parseCount,
    )
    .option(
      '--model <profile>',
      'a model profile from harness.yaml to go on with (runs every stage)',
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
      '\nExit codes as `correx run`; a fork point inside an open effect, or a workspace that cannot\nbe rebuilt, is refused (exit 1) before anything is recorded or written.',
    )
    .action(async (typed: string | undefined, options: ForkOptions, command: Command) => {
      await drive(context, command, options, async (host, store, headless) => {
        const parentId = await resolveSessionRef(store, typed, command);
        const configure =
          options.model === undefined
            ? undefined
            : await profileSwitch(context, host, options.model);
        // The fork's mode is checked before anything is recorded (prompt mode needs a person).
        for (const event of await store.read(parentId, { limit: 10 }))
          if (event.payload.type === 'session_created')
            headless.checkMode(options.mode ?? event.payload.mode);
        const forkId = context.ids.next();
        const human = options.json === true ? context.err : context.out;
        const fork = await forkSession(
          {
            store,
            preimages: createPreimageStore(preimageDirectory(context.correxHome)),
            clock: context.clock,
            ids: context.ids,
            sha256: nodeSha256,
          },
          {
            parentSessionId: parentId,
            atSequence: options.at,
            forkSessionId: forkId,
            by: context.user,
            ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
            ...(options.mode === undefined ? {} : { mode: options.mode }),
            ...(options.model === undefined ? {} : { modelProfile: options.model }),
            ...(configure === undefined ? {} : { configure }),
            ...(options.allowMissing === true ? { allowMissing: true } : {}),
          },
        );
        human(
          `fork ${fork.sessionId} of ${parentId} at #${fork.atSequence} (parent hash ${fork.parentHash.slice(0, 12)}): ${fork.copied} events copied, workspace ${fork.workspace} rebuilt (${fork.restored.length} files restored)`,
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

/** The fork's kernel config: the parent's with every stage routed to `profile` alone. */
async function profileSwitch(
  context: CommandContext,
  host: { options(): Promise<{ readonly modelProfiles: readonly string[] }> },
  profile: string,
): Promise<(parent: KernelConfig) => KernelConfig> {
  const harness = await loadHarnessConfig({ correxHome: context.correxHome });
  const chosen = harness.models.find((candidate) => candidate.id === profile);
  if (chosen === undefined) {
    const { modelProfiles } = await host.options();
    throw new CorrexError(
      'usage',
      `no model profile "${profile}" in harness.yaml (configured: ${harness.models.map((m) => m.id).join(', ') || modelProfiles.join(', ') || 'none'})`,
    );
  }
  return (parent) => ({ ...parent, router: createInferenceRouter({ profiles: [chosen] }) });
}

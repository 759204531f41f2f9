import { Command } from 'commander';
import { recordedChanges } from '../../../core/kernel/session-changes.js';
import type { TouchedFile } from '../../../core/tools/tool-events.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import type { CommandContext } from '../cli-context.js';
import { unifiedDiff } from '../unified-diff.js';
import { withStore } from '../with-store.js';

const describeMode = (mode: number | null | undefined) =>
  mode === null || mode === undefined ? 'absent' : mode.toString(8).padStart(4, '0');

/**
 * `correx diff <session> [--stage S]`: what each call changed in the workspace, from the
 * recorded change records, with the command that changed it; file contents from the stored
 * pre-images (`<correx home>/preimages`), or a note when they were not kept.
 */
export function diffCommand(context: CommandContext): Command {
  return new Command('diff')
    .description('show what a session changed in the workspace, call by call, with the commands')
    .argument('<session>', 'session id')
    .option('--stage <id>', 'only the calls of this stage')
    .action(async (sessionId: string, options: { stage?: string }, command: Command) => {
      const blobs = createPreimageStore(preimageDirectory(context.correxHome));
      await withStore(context, command, async ({ events }) => {
        const read = await events.read(sessionId);
        if (read.length === 0) {
          context.err(`correx: no events for session ${sessionId}`);
          context.fail(1);
          return;
        }
        const changes = recordedChanges(
          read,
          options.stage === undefined ? {} : { stageId: options.stage },
        );
        if (changes.length === 0) {
          context.out(`no recorded changes in session ${sessionId}`);
          return;
        }
        const lines: string[] = [];
        const text = (sha256: string | null): string | null => {
          if (sha256 === null) return '';
          const bytes = blobs.get(sha256);
          if (bytes === null || bytes.subarray(0, 8000).includes(0)) return null;
          return bytes.toString('utf8');
        };
        const fileDiff = (file: TouchedFile) => {
          const label =
            file.access === 'delete' ? 'deleted' : file.before === null ? 'created' : 'modified';
          lines.push(`diff ${file.path} (${label})`);
          if (
            typeof file.modeBefore === 'number' &&
            typeof file.modeAfter === 'number' &&
            file.modeBefore !== file.modeAfter
          )
            lines.push(`mode ${describeMode(file.modeBefore)} -> ${describeMode(file.modeAfter)}`);
          if (file.before === file.after) return;
          const before = text(file.before);
          const after = text(file.after);
          if (before === null || after === null) {
            lines.push(
              `content ${file.before ?? 'absent'} -> ${file.after ?? 'absent'} (bytes not kept or binary)`,
            );
            return;
          }
          lines.push(`--- ${file.before === null ? '/dev/null' : `a${file.path}`}`);
          lines.push(`+++ ${file.after === null ? '/dev/null' : `b${file.path}`}`);
          const hunks = unifiedDiff(before, after);
          lines.push(...(hunks ?? ['(too large for an inline diff)']));
        };
        for (const change of changes) {
          lines.push(
            `# #${change.sequence} ${change.callId}${change.stageId === null ? '' : ` [${change.stageId}]`} ${change.tool} ${change.outcome}${change.command === null ? '' : `: $ ${change.command}`}`,
          );
          for (const file of change.files) fileDiff(file);
        }
        context.out(lines.join('\n'));
      });
    });
}

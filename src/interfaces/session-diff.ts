import type { PayloadShape, StoredEvent } from '../core/events/event-envelope.js';
import { recordedChanges } from '../core/kernel/index.js';
import type { TouchedFile } from '../core/tools/tool-events.js';
import type { PreimageStore } from '../infrastructure/sandbox/preimage-store.js';
import { createHash } from 'node:crypto';
import type { CorrexEvent } from '../core/event-catalog.js';
import { recordedFileContent } from './recorded-file-content.js';
import { unifiedDiff } from './unified-diff.js';
import { visibleLines, visibleText } from '../core/base/visible-text.js';

/** One file of a recorded change, as a reader sees it. */
export type FileDiff = {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
  /** Octal modes (`0644`, `absent`) when the call changed the mode. */
  readonly mode: { readonly before: string; readonly after: string } | null;
  readonly before: string | null;
  readonly after: string | null;
  /**
   * Unified diff hunks; empty when the bytes did not change; null when they cannot be shown
   * (`note` says why).
   */
  readonly hunks: string[] | null;
  readonly note: string | null;
};

/** One call's recorded changes with their diffs: what `correx diff` and the web page show. */
export type ChangeDiff = {
  readonly sequence: number;
  readonly callId: string;
  readonly stageId: string | null;
  readonly tool: string;
  readonly outcome: string;
  /** The command line of an exec, or null. */
  readonly command: string | null;
  readonly files: FileDiff[];
};

const describeMode = (mode: number | null | undefined) =>
  mode === null || mode === undefined ? 'absent' : mode.toString(8).padStart(4, '0');

/**
 * The real diff of a session's recorded changes (exec change records, file tools' writes,
 * undos), call by call with the commands, file contents from the stored pre-images. The one
 * reading both `correx diff` and `GET /api/sessions/:id/diff` use, so they cannot drift.
 */
export function describeSessionDiff(
  events: readonly StoredEvent<PayloadShape>[],
  preimages: PreimageStore | null,
  options: { readonly stageId?: string } = {},
): ChangeDiff[] {
  /**
   * The bytes a change record names: a stored pre-image, else the content the log itself
   * recorded of that file at that point (a whole read, a write), when its hash matches.
   */
  const text = (sha256: string | null, path: string, before: number): string | null => {
    if (sha256 === null) return '';
    const bytes = preimages?.get(sha256) ?? null;
    if (bytes !== null) return bytes.subarray(0, 8000).includes(0) ? null : bytes.toString('utf8');
    const recorded = recordedFileContent(events as readonly CorrexEvent[], path, before);
    return recorded !== undefined &&
      createHash('sha256').update(recorded, 'utf8').digest('hex') === sha256
      ? recorded
      : null;
  };
  const fileDiff = (file: TouchedFile, sequence: number): FileDiff => {
    const change =
      file.access === 'delete' ? 'deleted' : file.before === null ? 'created' : 'modified';
    const mode =
      typeof file.modeBefore === 'number' &&
      typeof file.modeAfter === 'number' &&
      file.modeBefore !== file.modeAfter
        ? { before: describeMode(file.modeBefore), after: describeMode(file.modeAfter) }
        : null;
    const base = { path: file.path, change, mode, before: file.before, after: file.after } as const;
    if (file.before === file.after) return { ...base, hunks: [], note: null };
    const before = text(file.before, file.path, sequence);
    const after = text(file.after, file.path, sequence + 1);
    if (before === null || after === null)
      return { ...base, hunks: null, note: 'bytes not kept or binary' };
    const hunks = unifiedDiff(before, after);
    return hunks === null
      ? { ...base, hunks: null, note: 'too large for an inline diff' }
      : { ...base, hunks, note: null };
  };
  return recordedChanges(
    events,
    options.stageId === undefined ? {} : { stageId: options.stageId },
  ).map((change) => ({
    sequence: change.sequence,
    callId: change.callId,
    stageId: change.stageId,
    tool: change.tool,
    outcome: change.outcome,
    command: change.command,
    files: change.files.map((file) => fileDiff(file, change.sequence)),
  }));
}

/** The diff as `correx diff` prints it, one line per entry. */
export function sessionDiffLines(changes: readonly ChangeDiff[]): string[] {
  // Names, commands and contents come from the workspace and the model: every one is shown
  // through the escaping function, so a name or a line cannot write to the terminal.
  const lines: string[] = [];
  for (const change of changes) {
    lines.push(
      visibleText(
        `# #${change.sequence} ${change.callId}${change.stageId === null ? '' : ` [${change.stageId}]`} ${change.tool} ${change.outcome}${change.command === null ? '' : `: $ ${change.command}`}`,
      ),
    );
    for (const file of change.files) {
      const path = visibleText(file.path);
      lines.push(`diff ${path} (${file.change})`);
      if (file.mode !== null) lines.push(`mode ${file.mode.before} -> ${file.mode.after}`);
      if (file.hunks === null && file.note === 'bytes not kept or binary') {
        lines.push(
          `content ${file.before ?? 'absent'} -> ${file.after ?? 'absent'} (bytes not kept or binary)`,
        );
        continue;
      }
      if (file.before === file.after) continue;
      lines.push(`--- ${file.before === null ? '/dev/null' : `a${path}`}`);
      lines.push(`+++ ${file.after === null ? '/dev/null' : `b${path}`}`);
      // A hunk line is one line: tabs are kept, every other hidden character escaped.
      lines.push(...(file.hunks ?? ['(too large for an inline diff)']).map(visibleLines));
    }
  }
  return lines;
}

import type { JsonValue } from '../../../events/canonical-json.js';
import { builtinFileChange, describesFileChange } from '../../../tools/builtin-tools.js';

/** A successful call of a tool that describes its file change, with its recorded arguments. */
export type RecordedChange = {
  readonly tool: string;
  readonly args: { readonly [key: string]: JsonValue };
  readonly sequence: number;
};

/** Whether a receipt's tool changes files in a way its arguments show (`describeChange`). */
export function isFileChangeTool(tool: string): boolean {
  return describesFileChange(tool);
}

const MAX_LINES_PER_CHANGE = 60;
const MAX_LINES = 300;

/**
 * The session's file changes as a diff a reviewer reads, from the recorded arguments of the
 * calls that succeeded: a replacement as removed and added text, a whole write as the new content.
 * Bounded; the log keeps everything.
 */
export function recordedChangeDiff(changes: readonly RecordedChange[]): string[] {
  const lines: string[] = [];
  for (const change of changes) {
    // A call whose path is unreadable is left out; one whose other arguments are keeps its header.
    if (typeof change.args.path !== 'string') continue;
    const described = builtinFileChange(change.tool, change.args);
    const body =
      described === undefined
        ? []
        : described.kind === 'replace'
          ? [
              `--- ${described.path}`,
              `+++ ${described.path}`,
              ...marked(described.search, '-'),
              ...marked(described.replace, '+'),
            ]
          : [`+++ ${described.path} (whole file)`, ...marked(described.content, '+')];
    const clipped =
      body.length <= MAX_LINES_PER_CHANGE
        ? body
        : [
            ...body.slice(0, MAX_LINES_PER_CHANGE),
            `… ${body.length - MAX_LINES_PER_CHANGE} more lines`,
          ];
    lines.push(`(event #${change.sequence})`, ...clipped);
    if (lines.length >= MAX_LINES)
      return [...lines.slice(0, MAX_LINES), '… more changes in the log'];
  }
  return lines;
}

function marked(text: string, mark: string): string[] {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n').map((line) => `${mark}${line}`);
}

import type { JsonValue } from '../../../events/canonical-json.js';

/** A successful `write_file` or `edit_file` call, with the arguments its receipt recorded. */
export type RecordedChange = {
  readonly tool: string;
  readonly args: { readonly [key: string]: JsonValue };
  readonly sequence: number;
};

const TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/** Whether a receipt's tool changes files in a way its arguments show. */
export function isFileChangeTool(tool: string): boolean {
  return TOOLS.has(tool);
}

const MAX_LINES_PER_CHANGE = 60;
const MAX_LINES = 300;

/**
 * The session's file changes as a diff a reviewer reads, from the recorded arguments of the
 * calls that succeeded: `edit_file` as removed and added text, `write_file` as the new content.
 * Bounded; the log keeps everything.
 */
export function recordedChangeDiff(changes: readonly RecordedChange[]): string[] {
  const lines: string[] = [];
  for (const change of changes) {
    const { path, search, replace, content } = change.args;
    if (typeof path !== 'string') continue;
    const body =
      change.tool === 'edit_file' && typeof search === 'string' && typeof replace === 'string'
        ? [`--- ${path}`, `+++ ${path}`, ...marked(search, '-'), ...marked(replace, '+')]
        : typeof content === 'string'
          ? [`+++ ${path} (whole file)`, ...marked(content, '+')]
          : [];
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

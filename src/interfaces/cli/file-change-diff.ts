import { builtinFileChange } from '../../core/tools/builtin-tools.js';

/** At most this many lines of one change are shown; the log keeps all of it. */
const MAX_LINES = 40;

function prefixed(text: string, mark: string): string[] {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line) => `${mark}${line}`);
}

function clipped(lines: string[]): string[] {
  return lines.length <= MAX_LINES
    ? lines
    : [
        ...lines.slice(0, MAX_LINES),
        `… ${lines.length - MAX_LINES} more lines (see correx events)`,
      ];
}

/**
 * A file change a tool made, as a diff a person reads: a replacement as the replaced and the new
 * text, a whole write as the new content (as the tool's `describeChange` describes it). Built
 * from the recorded arguments of a call whose receipt says it succeeded; other tools (and
 * unparsable arguments) give no diff.
 */
export function fileChangeDiff(tool: string, argsRaw: string): string[] {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(argsRaw) as Record<string, unknown>;
  } catch {
    return [];
  }
  const change = builtinFileChange(tool, args);
  if (change === undefined) return [];
  const path = change.path;
  if (change.kind === 'replace')
    return clipped([
      `--- ${path}`,
      `+++ ${path}`,
      ...prefixed(change.search, '-'),
      ...prefixed(change.replace, '+'),
    ]);
  return clipped([`+++ ${path} (whole file)`, ...prefixed(change.content, '+')]);
}

/** Unchanged lines shown around a change. */
const CONTEXT = 2;

function linesOf(text: string): string[] {
  if (text === '') return [];
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/**
 * What a write or edit would change in a file whose current content the log holds: the lines
 * between the common start and the common end shown removed and added, with a little context.
 */
export function contentDiff(path: string, before: string, after: string): string[] {
  const old = linesOf(before);
  const next = linesOf(after);
  let start = 0;
  while (start < old.length && start < next.length && old[start] === next[start]) start++;
  let end = 0;
  while (
    end < old.length - start &&
    end < next.length - start &&
    old[old.length - 1 - end] === next[next.length - 1 - end]
  )
    end++;
  if (start === old.length && start === next.length && before === after)
    return [`--- ${path}`, `+++ ${path}`, '  (no change)'];
  const from = Math.max(0, start - CONTEXT);
  return clipped([
    `--- ${path} (as the log last saw it)`,
    `+++ ${path}`,
    `@@ line ${start + 1} @@`,
    ...old.slice(from, start).map((line) => ` ${line}`),
    ...old.slice(start, old.length - end).map((line) => `-${line}`),
    ...next.slice(start, next.length - end).map((line) => `+${line}`),
    ...old.slice(old.length - end, old.length - end + CONTEXT).map((line) => ` ${line}`),
  ]);
}

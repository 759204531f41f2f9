/**
 * What a successful call of a file-writing tool does to one file, as its arguments say: the
 * whole new content, or one occurrence of `search` replaced by `replace`. A tool declares it
 * once (`describeChange`); the approval prompt, the diffs, the change record, the server and
 * the web page read it instead of branching on tool names.
 */
export type FileChange =
  | { readonly kind: 'whole'; readonly path: string; readonly content: string }
  | {
      readonly kind: 'replace';
      readonly path: string;
      readonly search: string;
      readonly replace: string;
    };

/**
 * Arguments as a receipt or proposal recorded them. Changes are described from recorded
 * arguments (replay reads them long after the call), so a describer checks each value's type
 * itself and answers undefined for arguments that do not describe a change.
 */
export type RecordedArgs = { readonly [key: string]: unknown };

/** Describes the change a tool's recorded arguments make (undefined: they make none it can show). */
export type DescribeChange = (args: RecordedArgs) => FileChange | undefined;

/** The describer of a tool that writes its `content` argument whole to `path`. */
export const wholeFileChange: DescribeChange = (args) =>
  typeof args.path === 'string' && typeof args.content === 'string'
    ? { kind: 'whole', path: args.path, content: args.content }
    : undefined;

/** The describer of a tool that replaces one occurrence of `search` by `replace` in `path`. */
export const replacedTextChange: DescribeChange = (args) =>
  typeof args.path === 'string' &&
  typeof args.search === 'string' &&
  typeof args.replace === 'string'
    ? { kind: 'replace', path: args.path, search: args.search, replace: args.replace }
    : undefined;

/**
 * The file's content after the change, given its content before (undefined: unknown). A
 * replacement of unknown content is unknown; `replace` is inserted literally (no `$&` patterns).
 */
export function contentAfter(change: FileChange, before: string): string;
export function contentAfter(change: FileChange, before: string | undefined): string | undefined;
export function contentAfter(change: FileChange, before: string | undefined): string | undefined {
  if (change.kind === 'whole') return change.content;
  if (before === undefined) return undefined;
  const replace = change.replace;
  return before.replace(change.search, () => replace);
}

import { z } from 'zod';

export const BriefReferenceKindSchema = z.enum(['path', 'symbol', 'command', 'issue']);

/** Something a task names that the work must be about: a file, a symbol, a command, an issue. */
export const BriefReferenceSchema = z.strictObject({
  kind: BriefReferenceKindSchema,
  value: z.string().min(1),
});
export type BriefReference = z.infer<typeof BriefReferenceSchema>;

const COMMAND_PROGRAMS = new Set([
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'node',
  'tsc',
  'go',
  'cargo',
  'make',
  'pytest',
  'python',
  'python3',
  'git',
  'deno',
  'bun',
  'vitest',
  'jest',
  'eslint',
]);

// A path: segments with a slash or a file extension (`src/a.ts`, `README.md`, `./lib/x`).
const PATH =
  /^(?:\.{0,2}\/)?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7}$|^(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?$/;
// An identifier, possibly dotted or called: `parseDate`, `Parser.parse()`, `MAX_SIZE`.
const SYMBOL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;
const ISSUE = /(?:^|[\s(])(#\d+|[A-Z][A-Z0-9]+-\d+)\b/g;
const CODE = /`([^`\n]+)`/g;
const WORD = /[^\s`'"()<>,;]+/g;

/**
 * The references a task names, in order of first appearance, each once: paths (in backticks or
 * bare, recognised by a slash or a file extension), symbols (backticked identifiers), commands
 * (backticked text starting with a known program) and issue ids (`#12`, `ABC-123`). Pure and
 * deterministic: the same text gives the same list, so replay re-derives it.
 */
export function extractBriefReferences(task: string): BriefReference[] {
  const found: BriefReference[] = [];
  const seen = new Set<string>();
  const add = (kind: BriefReference['kind'], value: string) => {
    const key = `${kind}:${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ kind, value });
  };
  const coded = new Set<string>();
  for (const match of task.matchAll(CODE)) {
    const text = match[1]!.trim();
    coded.add(text);
    const program = text.split(/\s+/)[0]!;
    if (text.includes(' ') && COMMAND_PROGRAMS.has(program)) add('command', text);
    else if (isPath(text)) add('path', trimPath(text));
    else if (SYMBOL.test(text)) add('symbol', text.replace(/\(\)$/, ''));
  }
  const prose = task.replace(CODE, ' ');
  for (const match of prose.matchAll(WORD)) {
    const word = match[0].replace(/[.:!?]+$/, '');
    if (isPath(word) && !/^https?:/.test(word) && !word.includes('://'))
      add('path', trimPath(word));
  }
  for (const match of task.matchAll(ISSUE)) add('issue', match[1]!);
  return found;
}

function isPath(text: string): boolean {
  if (text.includes('://') || /^\d+(\.\d+)+$/.test(text)) return false;
  return PATH.test(text);
}

function trimPath(text: string): string {
  return text.replace(/^\.\//, '').replace(/\/$/, '');
}

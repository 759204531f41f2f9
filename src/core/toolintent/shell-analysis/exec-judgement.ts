import type { WorkspacePolicy } from '../../policies/workspace-policy.js';
import type { ShellWord } from './shell-syntax.js';

/** Standard input fed by a here-document: `literal` when the shell expands nothing in it. */
export type HeredocInput = { readonly body: string; readonly literal: boolean };

/** The callbacks program checks report through (implemented by exec-command-analysis). */
export type ExecJudgement = {
  readonly policy: WorkspacePolicy;
  /** Flag `sandbox-containment`: classify and record (see exec-stop-classes.ts). */
  readonly containment: boolean;
  /** Flag `confinement-by-construction` with a sandbox: the sandbox is the policy. */
  readonly confined: boolean;
  /** Flag `exec-sibling-classification`: judge the siblings of refused forms alike. */
  readonly siblings: boolean;
  /** Flag `exec-bash`: the command line is bash (`[[` is a test like `[`). */
  readonly bash: boolean;
  /** The here-document the current command reads as standard input, if any. */
  readonly stdin: HeredocInput | null;
  /** A file the command edits in place (sed -i): a write held to read-before-write. */
  edit(word: ShellWord, what: string): void;
  block(code: string, message: string): void;
  ask(code: string, message: string): void;
  write(word: ShellWord, what: string): void;
  read(word: ShellWord): void;
  url(text: string): void;
  nested(words: readonly ShellWord[], depth: number): void;
  /** Records a program the command runs (the audit record). */
  program(name: string): void;
  /** A line another shell runs (`bash -c LINE`); `asBash` when that shell reads it as bash. */
  nestedLine(line: string, depth: number, asBash?: boolean): void;
};

/** The non-option words of a command (everything after `--` counts, and a lone `-`). */
export function operands(words: readonly ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  let ended = false;
  for (const word of words) {
    if (!ended && word.text === '--') ended = true;
    else if (ended || !word.text.startsWith('-') || word.text === '-') out.push(word);
  }
  return out;
}

const STDIN_FILES = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/**
 * True when an interpreter would read its program from stdin: no script operand, or `-` (and,
 * with `siblings`, a script named `/dev/stdin` or `/dev/fd/0`, which is the same thing).
 */
export function readsProgramFromInput(args: readonly ShellWord[], siblings = false): boolean {
  if (args.some((word) => /^(-v|-V|--version|-h|--help)$/.test(word.text))) return false;
  const script = operands(args)[0];
  return script === undefined || script.text === '-' || (siblings && STDIN_FILES.has(script.text));
}

/** Judges one simple command (program + arguments), recursing into what it really runs. */

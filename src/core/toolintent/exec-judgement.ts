import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import type { ShellWord } from './shell-syntax.js';

/** The callbacks program checks report through (implemented by exec-command-analysis). */
export type ExecJudgement = {
  readonly policy: WorkspacePolicy;
  block(code: string, message: string): void;
  ask(code: string, message: string): void;
  write(word: ShellWord, what: string): void;
  read(word: ShellWord): void;
  url(text: string): void;
  nested(words: readonly ShellWord[], depth: number): void;
  nestedLine(line: string, depth: number): void;
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

/** True when an interpreter would read its program from stdin: no script operand, or `-`. */
export function readsProgramFromInput(args: readonly ShellWord[]): boolean {
  if (args.some((word) => /^(-v|-V|--version|-h|--help)$/.test(word.text))) return false;
  const script = operands(args)[0];
  return script === undefined || script.text === '-';
}

/** Judges one simple command (program + arguments), recursing into what it really runs. */

import { findSedScriptIssues } from './sed-script.js';
import { operands, type ExecJudgement } from './exec-judgement.js';
import type { ShellWord } from './shell-syntax.js';

/* Checks for programs that run other commands (find, xargs) or write files (sed, awk, cp). */

export function judgeFind(args: readonly ShellWord[], j: ExecJudgement, depth: number): void {
  const roots: ShellWord[] = [];
  let index = 0;
  while (
    index < args.length &&
    !args[index]!.text.startsWith('-') &&
    args[index]!.text !== '(' &&
    args[index]!.text !== '!'
  ) {
    roots.push(args[index]!);
    index++;
  }
  for (; index < args.length; index++) {
    const text = args[index]!.text;
    if (text === '-exec' || text === '-execdir' || text === '-ok' || text === '-okdir') {
      const end = args.findIndex(
        (word, at) => at > index && (word.text === ';' || word.text === '+'),
      );
      const inner = args
        .slice(index + 1, end < 0 ? args.length : end)
        .filter((word) => word.text !== '{}');
      if (end < 0 || inner.length === 0)
        j.block('find_exec', `find ${text} without a complete command cannot be judged`);
      else j.nested(inner, depth + 1);
      index = end < 0 ? args.length : end;
    } else if (text === '-delete') {
      for (const root of roots.length > 0 ? roots : [{ text: '.', dynamic: false, glob: false }])
        j.write(root, 'find -delete root');
    } else if (
      text === '-fprint' ||
      text === '-fprint0' ||
      text === '-fprintf' ||
      text === '-fls'
    ) {
      const target = args[index + 1];
      if (target !== undefined) j.write(target, `find ${text} file`);
    }
  }
}

export function judgeXargs(args: readonly ShellWord[], j: ExecJudgement, depth: number): void {
  const valued = new Set([
    '-a',
    '-d',
    '-E',
    '-I',
    '-L',
    '-n',
    '-P',
    '-s',
    '--arg-file',
    '--delimiter',
    '--max-args',
    '--max-procs',
    '--max-lines',
    '--replace',
  ]);
  let index = 0;
  while (index < args.length && args[index]!.text.startsWith('-')) {
    const text = args[index]!.text;
    if (text === '-a' || text.startsWith('--arg-file')) j.read(args[index + 1] ?? args[index]!);
    index += valued.has(text) ? 2 : 1;
  }
  // xargs appends unknown input to the command, so the command itself is judged; with no command it runs echo.
  if (index < args.length) j.nested(args.slice(index), depth + 1);
}

export function judgeSed(args: readonly ShellWord[], j: ExecJudgement): void {
  const scripts: ShellWord[] = [];
  const files: ShellWord[] = [];
  let inPlace = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    const text = word.text;
    if (text === '-e' || text === '--expression') scripts.push(args[++index] ?? word);
    else if (text.startsWith('--expression=')) scripts.push({ ...word, text: text.slice(13) });
    else if (text === '-f' || text.startsWith('--file')) {
      j.block('sed_script_file', 'sed -f runs a script file that cannot be judged here');
      return;
    } else if (
      text.startsWith('--in-place') ||
      (/^-[a-zA-Z]+/.test(text) && !text.startsWith('--') && text.slice(1).includes('i'))
    )
      inPlace = true;
    else if (!text.startsWith('-'))
      (scripts.length === 0 &&
      !args.slice(0, index).some((w) => w.text === '-e' || w.text.startsWith('--expression'))
        ? scripts
        : files
      ).push(word);
  }
  for (const script of scripts) {
    if (script.dynamic) {
      j.block('sed_unparsed', 'the sed script is computed by the shell');
      continue;
    }
    for (const issue of findSedScriptIssues(script.text))
      j.block(issue.code, `sed: ${issue.detail}`);
  }
  if (inPlace)
    for (const file of files)
      if (j.siblings) j.edit(file, 'sed -i target');
      else j.write(file, 'sed -i target');
}

export function judgeAwk(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
  if (
    args.some((word) => word.text === '-f' || word.text.startsWith('--file') || word.text === '-E')
  ) {
    j.block('awk_script_file', `${name} -f runs a program file that cannot be judged here`);
    return;
  }
  const program = operands(
    args.filter((word, index) => !(index > 0 && /^-[vF]$/.test(args[index - 1]!.text))),
  )[0];
  if (
    program === undefined ||
    program.dynamic ||
    /system|getline|[|>]|ENVIRON|close|fflush/.test(program.text)
  ) {
    j.block(
      'awk_side_effects',
      `${name} programs that run commands, write files or pipe are refused`,
    );
  }
}

export function judgeCopy(args: readonly ShellWord[], j: ExecJudgement): void {
  const targetFlag = args.findIndex(
    (word) => word.text === '-t' || word.text.startsWith('--target-directory'),
  );
  const paths = operands(args);
  if (targetFlag >= 0) {
    const word = args[targetFlag]!;
    const target = word.text.includes('=')
      ? { ...word, text: word.text.slice(word.text.indexOf('=') + 1) }
      : args[targetFlag + 1];
    if (target !== undefined) j.write(target, 'cp target directory');
    for (const source of paths.filter((path) => path !== target)) j.read(source);
    return;
  }
  const destination = paths.at(-1);
  if (destination !== undefined) j.write(destination, 'cp destination');
  for (const source of paths.slice(0, -1)) j.read(source);
}

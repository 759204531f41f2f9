import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import { judgeProgram, type ExecJudgement } from './exec-program-checks.js';
import { parseShellCommandLine, type ShellCommand, type ShellWord } from './shell-syntax.js';
import { finding } from './finding.js';
import type { Finding } from './toolintent-events.js';

export const EXEC_RULE_ID = 'exec-interpreter';

/** Everything an exec call would do, as far as static analysis can see. */
export type ExecAnalysis = {
  readonly findings: readonly Finding[];
  /** Raw path words the command writes (redirections, tee, sed -i, cp/mv/rm/...); resolved against cwd. */
  readonly writePaths: readonly string[];
  /** Raw path words it reads from explicitly (input redirections, upload files, copy sources). */
  readonly readPaths: readonly string[];
  /** URLs network programs would contact. */
  readonly urls: readonly string[];
};

/** Variables that change what a program loads or runs; assigning them is never allowed. */
const DANGEROUS_VARIABLES = new Set([
  'PATH',
  'IFS',
  'ENV',
  'BASH_ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'CDPATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'ZDOTDIR',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'HOME',
  'XDG_CONFIG_HOME',
  'TMPDIR',
  'SSH_ASKPASS',
  'BROWSER',
]);
const DANGEROUS_PREFIXES = ['LD_', 'DYLD_', 'GIT_', 'NPM_CONFIG_', 'YARN_', 'PNPM_'];

/** True when assigning `name` could change which code runs. */
export function isDangerousVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    DANGEROUS_VARIABLES.has(upper) || DANGEROUS_PREFIXES.some((prefix) => upper.startsWith(prefix))
  );
}

const DEVICE_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin']);

/**
 * Analyzes the `command` (a shell line) or `argv` of an exec call. Fails closed: an over-long
 * line, too many commands, or syntax the parser does not fully understand is a BLOCK finding,
 * never a weaker fallback check.
 */
export function analyzeExecCall(
  args: { readonly command?: unknown; readonly argv?: unknown },
  policy: WorkspacePolicy,
): ExecAnalysis {
  const state = createState(policy);
  if (typeof args.command === 'string') {
    judgeShellLine(args.command, state, 0);
  } else if (Array.isArray(args.argv) && args.argv.every((item) => typeof item === 'string')) {
    const argv = args.argv as string[];
    if (argv.join(' ').length > policy.maxCommandLength) {
      state.block(
        'command_too_long',
        `the command is longer than ${policy.maxCommandLength} characters`,
      );
    } else {
      judgeWords(
        argv.map((text) => ({ text, dynamic: false, glob: false })),
        state,
        0,
      );
    }
  } else {
    state.block('no_command', 'an exec call needs `command` (a string) or `argv` (strings)');
  }
  return {
    findings: state.findings,
    writePaths: state.writePaths,
    readPaths: state.readPaths,
    urls: state.urls,
  };
}

type State = ExecJudgement & {
  readonly policy: WorkspacePolicy;
  readonly findings: Finding[];
  readonly writePaths: string[];
  readonly readPaths: string[];
  readonly urls: string[];
  commandCount: number;
};

function createState(policy: WorkspacePolicy): State {
  const state: State = {
    policy,
    findings: [],
    writePaths: [],
    readPaths: [],
    urls: [],
    commandCount: 0,
    block: (code, message) =>
      state.findings.push(finding(EXEC_RULE_ID, 'block', code, message, 'T3')),
    ask: (code, message) => state.findings.push(finding(EXEC_RULE_ID, 'ask', code, message, 'T3')),
    write: (word, what) => {
      if (word.dynamic || word.glob) {
        state.block(
          'dynamic_write_target',
          `${what} ${JSON.stringify(word.text)} is computed by the shell; name the file literally`,
        );
      } else if (!DEVICE_FILES.has(word.text)) {
        state.writePaths.push(word.text);
      }
    },
    read: (word) => {
      if (!word.dynamic && !word.glob && !DEVICE_FILES.has(word.text))
        state.readPaths.push(word.text);
    },
    url: (text) => state.urls.push(text),
    nested: (words, depth) => judgeWords(words, state, depth),
    nestedLine: (line, depth) => judgeShellLine(line, state, depth),
  };
  return state;
}

function judgeShellLine(line: string, state: State, depth: number): void {
  if (line.length > state.policy.maxCommandLength) {
    state.block(
      'command_too_long',
      `the command line is longer than ${state.policy.maxCommandLength} characters; it is refused, not checked loosely`,
    );
    return;
  }
  const parsed = parseShellCommandLine(line);
  if (!parsed.ok) {
    state.block(
      'unparseable_command',
      `the command line could not be fully parsed (${parsed.error}); write simple commands joined by |, && or ;`,
    );
    return;
  }
  for (const command of parsed.commands) judgeShellCommand(command, state, depth + command.depth);
}

function judgeShellCommand(command: ShellCommand, state: State, depth: number): void {
  for (const assignment of command.assignments) {
    if (isDangerousVariable(assignment.name)) {
      state.block('dangerous_variable', `setting ${assignment.name} changes which code runs`);
    }
  }
  for (const redirect of command.redirects) {
    if (redirect.target === null) continue;
    if (redirect.operator === '<' || redirect.operator === '<<<') {
      if (redirect.operator === '<') state.read(redirect.target);
      continue;
    }
    state.write(redirect.target, `the redirection target`);
  }
  judgeWords(command.words, state, depth);
}

function judgeWords(words: readonly ShellWord[], state: State, depth: number): void {
  if (words.length === 0) return;
  state.commandCount += 1;
  if (state.commandCount > state.policy.maxCommands) {
    if (state.commandCount === state.policy.maxCommands + 1) {
      state.block(
        'too_many_commands',
        `the command line runs more than ${state.policy.maxCommands} commands; it is refused, not checked loosely`,
      );
    }
    return;
  }
  if (depth > 8) {
    state.block('nesting_too_deep', 'commands nested more than 8 levels deep are refused');
    return;
  }
  judgeProgram(words, state, depth);
}

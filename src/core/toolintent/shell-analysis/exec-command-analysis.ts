import type { BehaviourFlags } from '../../base/behaviour-flag.js';
import type { SandboxKind } from '../../policies/sandbox-profile.js';
import type { WorkspacePolicy } from '../../policies/workspace-policy.js';
import type { HeredocInput } from './exec-judgement.js';
import { judgeProgram, type ExecJudgement } from './exec-program-checks.js';
import { confinedExecStop, execStopClass } from './exec-stop-classes.js';
import { parseShellCommandLine, type ShellCommand, type ShellWord } from './shell-syntax.js';
import { finding } from '../finding.js';
import {
  CONFINEMENT_BY_CONSTRUCTION,
  EXEC_BASH,
  EXEC_SIBLING_CLASSIFICATION,
  SANDBOX_CONTAINMENT,
} from '../toolintent-flags.js';
import type { Finding } from '../toolintent-events.js';

export const EXEC_RULE_ID = 'exec-interpreter';

/** Everything an exec call would do, as far as static analysis can see. */
export type ExecAnalysis = {
  readonly findings: readonly Finding[];
  /** Raw path words the command writes (redirections, tee, sed -i, cp/mv/rm/...); resolved against cwd. */
  readonly writePaths: readonly string[];
  /** Raw path words it reads from explicitly (input redirections, upload files, copy sources). */
  readonly readPaths: readonly string[];
  /** Write paths it edits in place (sed -i), held to read-before-write (flag exec-sibling-classification). */
  readonly editPaths: readonly string[];
  /** URLs network programs would contact. */
  readonly urls: readonly string[];
  /** Judged under `confinement-by-construction` with a sandbox: the profile holds what it names. */
  readonly confined: boolean;
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

/** What the analysis branches on besides the policy: the session's flags and its sandbox. */
export type ExecAnalysisOptions = {
  readonly flags?: BehaviourFlags;
  /** The confinement the command runs under; undefined counts as no sandbox. */
  readonly sandbox?: SandboxKind;
};

/**
 * Analyzes the `command` (a shell line) or `argv` of an exec call. Fails closed: an over-long
 * line, too many commands, or syntax the parser does not fully understand is a BLOCK finding,
 * never a weaker fallback check. With flag `sandbox-containment` every stop is classed by
 * exec-stop-classes.ts instead: final stops block, confined ones are recorded at T2 under a
 * sandbox (asked without one), liftable ones are asked.
 */
export function analyzeExecCall(
  args: { readonly command?: unknown; readonly argv?: unknown },
  policy: WorkspacePolicy,
  options: ExecAnalysisOptions = {},
): ExecAnalysis {
  const state = createState(policy, options);
  if (typeof args.command === 'string') {
    judgeShellLine(args.command, state, 0, state.bash);
  } else if (Array.isArray(args.argv) && args.argv.every((item) => typeof item === 'string')) {
    const argv = args.argv as string[];
    if (!state.confined && argv.join(' ').length > policy.maxCommandLength) {
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
  if (state.containment && state.programs.length > 0) {
    // The audit record: what the command runs, whatever the verdict (paths and hosts are targets).
    state.findings.push(
      finding(
        EXEC_RULE_ID,
        'info',
        'programs',
        `runs ${[...new Set(state.programs)].join(', ')}${state.sandboxed ? ' inside the sandbox' : ''}`,
      ),
    );
  }
  return {
    findings: state.findings,
    writePaths: state.writePaths,
    readPaths: state.readPaths,
    editPaths: state.editPaths,
    urls: state.urls,
    confined: state.confined,
  };
}

type State = ExecJudgement & {
  readonly policy: WorkspacePolicy;
  readonly sandboxed: boolean;
  readonly findings: Finding[];
  readonly writePaths: string[];
  readonly readPaths: string[];
  readonly editPaths: string[];
  readonly urls: string[];
  readonly programs: string[];
  stdin: HeredocInput | null;
  /** The directory a top-level `cd` moved to, relative to the call's cwd (containment only). */
  cwd: string | null;
  commandCount: number;
};

function createState(policy: WorkspacePolicy, options: ExecAnalysisOptions): State {
  const flags = options.flags ?? new Set<string>();
  const relative = (text: string) =>
    state.cwd === null || text.startsWith('/') || text.startsWith('~')
      ? text
      : `${state.cwd}/${text}`;
  const sandboxed = options.sandbox === 'bubblewrap';
  const containment = flags.has(SANDBOX_CONTAINMENT.name);
  const confined = containment && sandboxed && flags.has(CONFINEMENT_BY_CONSTRUCTION.name);
  /** Under confinement: a final refusal, an ask, or a record of what the sandbox holds (T2). */
  const confinedStop = (code: string, message: string) => {
    const kind = confinedExecStop(code);
    if (kind === 'final') state.findings.push(finding(EXEC_RULE_ID, 'block', code, message, 'T3'));
    else if (kind === 'ask') state.findings.push(finding(EXEC_RULE_ID, 'ask', code, message, 'T3'));
    else
      state.findings.push(
        finding(EXEC_RULE_ID, 'info', code, `${message} (runs confined by the sandbox)`, 'T2'),
      );
  };
  const state: State = {
    policy,
    containment,
    confined,
    siblings: flags.has(EXEC_SIBLING_CLASSIFICATION.name),
    bash: flags.has(EXEC_BASH.name),
    sandboxed,
    findings: [],
    writePaths: [],
    readPaths: [],
    editPaths: [],
    urls: [],
    programs: [],
    stdin: null,
    cwd: null,
    commandCount: 0,
    block: (code, message) => {
      if (confined) return confinedStop(code, message);
      if (!state.containment) {
        state.findings.push(finding(EXEC_RULE_ID, 'block', code, message, 'T3'));
        return;
      }
      const stop = execStopClass(code);
      if (stop === 'final')
        state.findings.push(finding(EXEC_RULE_ID, 'block', code, message, 'T3'));
      else if (stop === 'confined' && state.sandboxed)
        state.findings.push(
          finding(EXEC_RULE_ID, 'info', code, `${message} (confined by the sandbox)`, 'T2'),
        );
      else state.findings.push(finding(EXEC_RULE_ID, 'ask', code, message, 'T3'));
    },
    ask: (code, message) =>
      confined
        ? confinedStop(code, message)
        : state.findings.push(finding(EXEC_RULE_ID, 'ask', code, message, 'T3')),
    write: (word, what) => {
      if (confined && (word.dynamic || word.glob)) {
        // The folder a computed target lies in is still judged: `rm -rf ../*` writes outside.
        const folder = literalFolder(word.text);
        state.block(
          'dynamic_write_target',
          `${what} ${JSON.stringify(word.text)} is computed by the shell${folder === null ? '' : `; judged by its folder ${JSON.stringify(folder)}`}`,
        );
        if (folder !== null) state.writePaths.push(relative(folder));
      } else if (word.dynamic || word.glob) {
        state.block(
          'dynamic_write_target',
          `${what} ${JSON.stringify(word.text)} is computed by the shell; name the file literally`,
        );
      } else if (!DEVICE_FILES.has(word.text)) {
        state.writePaths.push(relative(word.text));
      }
    },
    edit: (word, what) => {
      state.write(word, what);
      if (!word.dynamic && !word.glob && !DEVICE_FILES.has(word.text))
        state.editPaths.push(relative(word.text));
    },
    read: (word) => {
      if (!word.dynamic && !word.glob && !DEVICE_FILES.has(word.text))
        state.readPaths.push(relative(word.text));
    },
    url: (text) => state.urls.push(text),
    nested: (words, depth) => judgeWords(words, state, depth),
    program: (name) => state.programs.push(name),
    nestedLine: (line, depth, asBash = false) =>
      judgeShellLine(line, state, depth, state.bash && asBash),
  };
  return state;
}

function judgeShellLine(line: string, state: State, depth: number, bash: boolean): void {
  // Under confinement a long line (a here-document writing a file) is parsed like any other.
  if (!state.confined && line.length > state.policy.maxCommandLength) {
    state.block(
      'command_too_long',
      `the command line is longer than ${state.policy.maxCommandLength} characters; it is refused, not checked loosely`,
    );
    return;
  }
  const parsed = parseShellCommandLine(line, { compound: state.containment, bash });
  if (!parsed.ok) {
    state.block(
      'unparseable_command',
      `the command line could not be fully parsed (${parsed.error}); write simple commands joined by |, && or ;`,
    );
    return;
  }
  let previous: ShellCommand | null = null;
  for (const command of parsed.commands) {
    if (state.containment && depth === 0 && isDirectoryChange(command, previous)) {
      changeDirectory(command, state);
    } else {
      judgeShellCommand(command, state, depth + command.depth);
    }
    previous = command;
  }
}

/**
 * A top-level `cd DIR` followed by `&&`, `;` or a newline (not in a pipeline or subshell, where
 * it would not move the commands after it) is a working directory for the rest of the line.
 */
function isDirectoryChange(command: ShellCommand, previous: ShellCommand | null): boolean {
  return (
    command.depth === 0 &&
    command.words[0]?.text === 'cd' &&
    command.words[0].dynamic === false &&
    command.separator !== '|' &&
    command.separator !== '|&' &&
    command.separator !== '&' &&
    previous?.separator !== '|' &&
    previous?.separator !== '|&'
  );
}

function changeDirectory(command: ShellCommand, state: State): void {
  const target = command.words.slice(1);
  const dir = target[0];
  if (
    target.length !== 1 ||
    dir === undefined ||
    dir.dynamic ||
    dir.glob ||
    dir.text === '-' ||
    dir.text.startsWith('-') ||
    command.redirects.length > 0 ||
    command.assignments.length > 0
  ) {
    state.block(
      'change_directory',
      'only `cd DIR` with one literal directory is judged; use the exec `cwd` argument',
    );
    return;
  }
  // The base of every later path (so a write after `cd ..` is a write outside); not itself a read,
  // since `mkdir -p build && cd build` names a directory that does not exist yet.
  state.cwd =
    state.cwd === null || dir.text.startsWith('/') || dir.text.startsWith('~')
      ? dir.text
      : `${state.cwd}/${dir.text}`;
}

function judgeShellCommand(command: ShellCommand, state: State, depth: number): void {
  for (const assignment of command.assignments) {
    if (isDangerousVariable(assignment.name)) {
      state.block('dangerous_variable', `setting ${assignment.name} changes which code runs`);
    }
  }
  let stdin: HeredocInput | null = null;
  for (const redirect of command.redirects) {
    if (redirect.heredoc !== undefined) {
      const literal = redirect.heredoc.quoted || !/[$`]/.test(redirect.heredoc.body);
      if (!literal)
        state.block(
          'heredoc_expansion',
          "the here-document has an unquoted delimiter and expansions the shell would run; quote the delimiter (<<'EOF')",
        );
      stdin = { body: redirect.heredoc.body, literal };
      continue;
    }
    if (redirect.target === null) continue;
    if (redirect.operator === '<' || redirect.operator === '<<<') {
      if (redirect.operator === '<') state.read(redirect.target);
      if (redirect.operator === '<<<') stdin = null;
      continue;
    }
    state.write(redirect.target, `the redirection target`);
  }
  const outer = state.stdin;
  state.stdin = stdin;
  judgeWords(command.words, state, depth);
  state.stdin = outer;
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

/**
 * The literal folder of a word the shell computes: the text before its first expansion or
 * wildcard, up to its last `/` (`../*` → `..`, `build/$NAME` → `build`, `*` → `.`). Null when
 * the folder itself is computed (`$OUT/x`, `~user/x`).
 */
export function literalFolder(text: string): string | null {
  const first = text.search(/[$`*?[{]/);
  const prefix = first < 0 ? text : text.slice(0, first);
  if (first === 0 && text[0] === '$') return null;
  const slash = prefix.lastIndexOf('/');
  if (slash < 0) return prefix.startsWith('~') ? null : '.';
  const folder = prefix.slice(0, slash);
  if (folder === '') return '/';
  return folder.startsWith('~') && folder !== '~' && !folder.startsWith('~/') ? null : folder;
}

import { judgeAwk, judgeCopy, judgeFind, judgeSed, judgeXargs } from './exec-file-checks.js';
import { operands, readsProgramFromInput, type ExecJudgement } from './exec-judgement.js';
import { judgeGit, judgeHttpClient, judgePackageManager } from './exec-network-checks.js';
import type { ShellWord } from './shell-syntax.js';

export type { ExecJudgement } from './exec-judgement.js';

const FORBIDDEN = new Set([
  'sudo',
  'doas',
  'su',
  'pkexec',
  'eval',
  'source',
  '.',
  'setsid',
  'disown',
  'chroot',
  'unshare',
  'nsenter',
  'trap',
  'alias',
  'set',
  'shopt',
  'enable',
  'hash',
  'crontab',
  'at',
  'systemctl',
  'launchctl',
]);
const DNS_TOOLS = new Set([
  'ping',
  'ping6',
  'dig',
  'nslookup',
  'host',
  'drill',
  'traceroute',
  'tracepath',
  'whois',
  'getent',
  'resolvectl',
]);
const RAW_NETWORK = new Set([
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'ssh',
  'scp',
  'sftp',
  'ftp',
  'tftp',
  'rsync',
  'openssl',
  'ssh-keyscan',
]);
const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'busybox',
]);
const INLINE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  node: [
    '-e',
    '--eval',
    '-p',
    '--print',
    '-r',
    '--require',
    '--import',
    '--loader',
    '--experimental-loader',
  ],
  deno: ['eval'],
  bun: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-command', '-encodedcommand'],
};
/**
 * Flags that make an interpreter run files it finds itself instead of a program from input:
 * `node --test` runs the test files of the working directory, each one judged like any file.
 */
const RUNS_FILES_WITHOUT_SCRIPT: Readonly<Record<string, readonly string[]>> = {
  node: ['--test'],
};
const PYTHONS = /^python(\d+(\.\d+)?)?$/;
const WRITERS = new Set([
  'tee',
  'rm',
  'rmdir',
  'touch',
  'mkdir',
  'ln',
  'truncate',
  'shred',
  'unlink',
  'install',
  'chmod',
  'chown',
  'chgrp',
  'mv',
]);
const TRANSPARENT = new Set(['command', 'builtin', 'exec', 'nohup', 'time']);

export function judgeProgram(words: readonly ShellWord[], j: ExecJudgement, depth: number): void {
  const program = words[0]!;
  const args = words.slice(1);
  // A lone `[` (test) has no closing bracket, so the shell never expands it.
  const literalTest = j.containment && !program.dynamic && program.text === '[';
  if (program.dynamic || (program.glob && !literalTest)) {
    j.block(
      'dynamic_program',
      `the program name ${JSON.stringify(program.text)} is computed by the shell`,
    );
    return;
  }
  const name = program.text;
  if (name.includes('/')) {
    j.block(
      'path_qualified_program',
      `run programs by name from the scrubbed PATH, not ${JSON.stringify(name)}`,
    );
    return;
  }
  j.program(name);
  if (j.containment && (name === 'source' || name === '.')) return judgeSource(name, args, j);
  if (FORBIDDEN.has(name)) {
    j.block(
      'forbidden_program',
      `${name} changes privileges, the shell's own state, or runs code it was handed as text`,
    );
    return;
  }
  if (name === 'cd' || name === 'pushd' || name === 'popd') {
    j.block(
      'change_directory',
      'changing directory inside a command is refused; use the exec `cwd` argument',
    );
    return;
  }
  if (
    name === 'export' ||
    name === 'declare' ||
    name === 'typeset' ||
    name === 'local' ||
    name === 'readonly' ||
    name === 'unset'
  ) {
    for (const word of operands(args)) {
      const variable = word.text.split('=')[0] ?? '';
      if (
        word.dynamic ||
        /^(LD_|DYLD_|GIT_|NPM_CONFIG_)|^(PATH|IFS|ENV|BASH_ENV|NODE_OPTIONS|PYTHONPATH|HOME|PROMPT_COMMAND|PS4)$/i.test(
          variable,
        )
      ) {
        j.block('dangerous_variable', `${name} ${word.text} changes which code runs`);
      }
    }
    return;
  }
  if (TRANSPARENT.has(name)) {
    if (
      name !== 'command' &&
      name !== 'builtin' &&
      name !== 'exec' &&
      !j.policy.allowedExecutables.includes(name)
    ) {
      j.block('program_not_allowed', `${name} is not on the policy's allowed programs`);
    }
    let rest = args;
    while (rest[0]?.text.startsWith('-') === true) rest = rest.slice(1);
    if (rest.length > 0) j.nested(rest, depth + 1);
    return;
  }
  if (DNS_TOOLS.has(name)) {
    j.block(
      'dns_egress',
      `${name} resolves names over the network, which can exfiltrate data through DNS`,
    );
    return;
  }
  if (RAW_NETWORK.has(name)) {
    j.block('raw_network', `${name} opens network connections the egress allowlist cannot check`);
    return;
  }
  // Bash's `[[ ]]` tests like `[` (the parser has taken its operators apart); allowed alike.
  const allowedAs = j.bash && name === '[[' ? '[' : name;
  if (!j.policy.allowedExecutables.includes(allowedAs)) {
    j.block('program_not_allowed', `${name} is not on the policy's allowed programs`);
  }
  if (name === 'env') return judgeEnv(args, j, depth);
  if (name === 'timeout' || name === 'nice' || name === 'stdbuf')
    return judgeWrapper(name, args, j, depth);
  if (SHELLS.has(name)) return judgeShell(name, args, j, depth);
  if (PYTHONS.test(name)) return judgePython(name, args, j);
  const inline = INLINE_FLAGS[name];
  if (inline !== undefined) {
    const flag = args.find(
      (word) =>
        inline.includes(word.text) ||
        inline.some((f) => f.startsWith('--') && word.text.startsWith(`${f}=`)),
    );
    if (flag !== undefined) {
      j.block(
        'inline_code',
        `${name} ${flag.text} runs inline code that can do anything; write a script file in the workspace and run it`,
      );
    } else if (
      RUNS_FILES_WITHOUT_SCRIPT[name]?.some((flag) => args.some((word) => word.text === flag))
        ? operands(args).some((word) => word.text === '-')
        : readsProgramFromInput(args, j.siblings)
    ) {
      if (j.containment) judgeProgramFromInput(name, j);
      else
        j.block(
          'inline_code',
          `${name} without a script file reads its program from input, which cannot be judged`,
        );
    }
    return;
  }
  switch (name) {
    case 'find':
      return judgeFind(args, j, depth);
    case 'xargs':
      return judgeXargs(args, j, depth);
    case 'git':
      return judgeGit(args, j);
    case 'rg':
      if (
        args.some(
          (word) =>
            word.text === '--pre' ||
            word.text.startsWith('--pre=') ||
            word.text === '--pre-glob' ||
            word.text.startsWith('--pre-glob='),
        )
      ) {
        j.block('rg_preprocessor', 'rg --pre runs an arbitrary program on every file');
      } else if (
        j.siblings &&
        args.some(
          (word) =>
            word.text === '--search-zip' ||
            word.text.startsWith('--hostname-bin') ||
            /^-[a-zA-Z]*z/.test(word.text),
        )
      ) {
        j.block(
          'rg_preprocessor',
          'rg -z and --hostname-bin run other programs (decompressors, a hostname program)',
        );
      }
      return;
    case 'sed':
      return judgeSed(args, j);
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
      return judgeAwk(name, args, j);
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun':
    case 'npx':
    case 'bunx':
      return judgePackageManager(name, args, j);
    case 'curl':
    case 'wget':
      return judgeHttpClient(name, args, j);
    case 'cp':
      return judgeCopy(args, j);
    case 'ffmpeg':
    case 'convert':
    case 'magick':
      if (j.containment) judgeMediaTool(name, args, j);
      return;
    case 'dd':
      for (const word of args) {
        if (word.text.startsWith('of=')) j.write({ ...word, text: word.text.slice(3) }, 'dd of=');
        if (word.text.startsWith('if=')) j.read({ ...word, text: word.text.slice(3) });
      }
      return;
    default:
      if (
        j.containment &&
        name === 'rm' &&
        args.some((word) => /^(-[a-zA-Z]*[rR]|--recursive$)/.test(word.text))
      )
        j.ask('destructive_in_workspace', 'rm -r deletes whole directories of the workspace');
      if (WRITERS.has(name)) {
        const targets = operands(args);
        const skip = name === 'chmod' || name === 'chown' || name === 'chgrp' ? 1 : 0;
        for (const word of targets.slice(skip)) j.write(word, `${name} target`);
      }
  }
}

function judgeEnv(args: readonly ShellWord[], j: ExecJudgement, depth: number): void {
  let index = 0;
  while (index < args.length) {
    const word = args[index]!;
    if (word.text === '-u' || word.text === '--unset') index += 2;
    else if (
      word.text === '-S' ||
      word.text.startsWith('--split-string') ||
      word.text === '-C' ||
      word.text.startsWith('--chdir')
    ) {
      j.block('env_trick', `env ${word.text} hides or relocates the command it runs`);
      return;
    } else if (word.text.startsWith('-')) index += 1;
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text)) {
      const variable = word.text.slice(0, word.text.indexOf('='));
      if (
        /^(LD_|DYLD_|GIT_|NPM_CONFIG_)|^(PATH|IFS|ENV|BASH_ENV|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|RUBYOPT|HOME|PAGER|EDITOR)$/i.test(
          variable,
        )
      ) {
        j.block('dangerous_variable', `env ${variable}=... changes which code runs`);
      }
      index += 1;
    } else break;
  }
  if (index < args.length) j.nested(args.slice(index), depth + 1);
}

function judgeWrapper(
  name: string,
  args: readonly ShellWord[],
  j: ExecJudgement,
  depth: number,
): void {
  let index = 0;
  const valued =
    name === 'timeout'
      ? ['-s', '-k', '--signal', '--kill-after']
      : name === 'nice'
        ? ['-n', '--adjustment']
        : ['-i', '-o', '-e'];
  while (index < args.length && args[index]!.text.startsWith('-')) {
    index += valued.includes(args[index]!.text) ? 2 : 1;
  }
  if (name === 'timeout') index += 1; // the duration
  if (index < args.length) j.nested(args.slice(index), depth + 1);
}

function judgeShell(
  name: string,
  args: readonly ShellWord[],
  j: ExecJudgement,
  depth: number,
): void {
  const flagIndex = args.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.text));
  if (flagIndex >= 0) {
    const script = args.slice(flagIndex + 1).find((word) => !word.text.startsWith('-'));
    if (script === undefined || script.dynamic) {
      j.block('inline_code', `${name} -c with a computed script cannot be judged`);
      return;
    }
    j.nestedLine(script.text, depth + 1, name === 'bash');
    return;
  }
  const files = operands(args);
  if (j.containment && readsProgramFromInput(args, j.siblings) && j.stdin?.literal === true) {
    // A literal here-document fed to a shell: its commands are judged one by one, as if written on the line.
    j.nestedLine(j.stdin.body, depth + 1, name === 'bash');
    return;
  }
  if (files.length === 0)
    j.block(
      'interactive_shell',
      `${name} without a script reads commands from input that cannot be judged`,
    );
  else if (files[0]!.text === '-' || readsProgramFromInput(args, j.siblings))
    j.block(
      'interactive_shell',
      `${name} ${files[0]!.text} reads commands from input that cannot be judged`,
    );
  else j.read(files[0]!);
}

function judgePython(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
  for (const word of args) {
    if (!word.text.startsWith('-') || word.text === '-') break;
    if (/^-[a-zA-Z]*c/.test(word.text) && !word.text.startsWith('--')) {
      j.block(
        'inline_code',
        `${name} -c runs inline code that can do anything; write a script file in the workspace and run it`,
      );
      return;
    }
    if (/^-[a-zA-Z]*m/.test(word.text) && !word.text.startsWith('--')) {
      // Under sandbox-containment an installed module is classed like other confined code.
      const message = `${name} -m runs an installed module (pip, http.server ...) whose effects cannot be judged`;
      if (j.containment) j.block('python_module', message);
      else j.ask('python_module', message);
      return;
    }
  }
  if (!readsProgramFromInput(args, j.siblings)) return;
  if (j.containment) judgeProgramFromInput(name, j);
  else
    j.block(
      'interactive_shell',
      `${name} without a script reads code from input that cannot be judged`,
    );
}

/**
 * An interpreter reading its program from standard input: a literal here-document is code the
 * model wrote, judged like `python3 -c` (confined by a sandbox); anything else (a pipe, a
 * terminal, a here-document the shell expands) is an interpreter with no program: final.
 */
function judgeProgramFromInput(name: string, j: ExecJudgement): void {
  if (j.stdin?.literal === true)
    j.block('inline_code', `${name} runs the program of a here-document, code the model wrote`);
  else
    j.block(
      'interactive_shell',
      `${name} reads its program from input that cannot be judged (a pipe or a terminal)`,
    );
}

/** `source FILE`: a relative file of the workspace is judged like `bash FILE`; anything else is final. */
function judgeSource(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
  const file = args[0];
  if (
    file === undefined ||
    file.dynamic ||
    file.glob ||
    file.text.startsWith('/') ||
    file.text.startsWith('~') ||
    file.text.split('/').includes('..')
  ) {
    j.block(
      'source_outside_workspace',
      `${name} runs shell code from a file that must be named literally inside the workspace`,
    );
    return;
  }
  j.read(file);
}

/** ffmpeg and ImageMagick write their last operand; the files after -i (ffmpeg) or before it are read. */
function judgeMediaTool(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
  const output = args.at(-1);
  if (output === undefined || output.text.startsWith('-')) return;
  if (name === 'ffmpeg') {
    args.forEach((word, index) => {
      if (word.text === '-i' && args[index + 1] !== undefined) j.read(args[index + 1]!);
    });
  } else {
    for (const word of operands(args.slice(0, -1))) j.read(word);
  }
  j.write(output, `${name} output`);
}

import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import { findSedScriptIssues } from './sed-script.js';
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

function operands(words: readonly ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  let ended = false;
  for (const word of words) {
    if (!ended && word.text === '--') ended = true;
    else if (ended || !word.text.startsWith('-') || word.text === '-') out.push(word);
  }
  return out;
}

/** True when an interpreter would read its program from stdin: no script operand, or `-`. */
function readsProgramFromInput(args: readonly ShellWord[]): boolean {
  if (args.some((word) => /^(-v|-V|--version|-h|--help)$/.test(word.text))) return false;
  const script = operands(args)[0];
  return script === undefined || script.text === '-';
}

/** Judges one simple command (program + arguments), recursing into what it really runs. */
export function judgeProgram(words: readonly ShellWord[], j: ExecJudgement, depth: number): void {
  const program = words[0]!;
  const args = words.slice(1);
  if (program.dynamic || program.glob) {
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
  if (!j.policy.allowedExecutables.includes(name)) {
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
    } else if (readsProgramFromInput(args)) {
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
    case 'dd':
      for (const word of args) {
        if (word.text.startsWith('of=')) j.write({ ...word, text: word.text.slice(3) }, 'dd of=');
        if (word.text.startsWith('if=')) j.read({ ...word, text: word.text.slice(3) });
      }
      return;
    default:
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
    j.nestedLine(script.text, depth + 1);
    return;
  }
  const files = operands(args);
  if (files.length === 0)
    j.block(
      'interactive_shell',
      `${name} without a script reads commands from input that cannot be judged`,
    );
  else if (files[0]!.text === '-')
    j.block('interactive_shell', `${name} - reads commands from input that cannot be judged`);
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
      j.ask(
        'python_module',
        `${name} -m runs an installed module (pip, http.server ...) whose effects cannot be judged`,
      );
      return;
    }
  }
  if (readsProgramFromInput(args))
    j.block(
      'interactive_shell',
      `${name} without a script reads code from input that cannot be judged`,
    );
}

function judgeFind(args: readonly ShellWord[], j: ExecJudgement, depth: number): void {
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

function judgeXargs(args: readonly ShellWord[], j: ExecJudgement, depth: number): void {
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

function judgeGit(args: readonly ShellWord[], j: ExecJudgement): void {
  let index = 0;
  while (index < args.length && args[index]!.text.startsWith('-')) {
    const text = args[index]!.text;
    if (
      /^(-c|--config-env|--exec-path|--git-dir|--work-tree|-C|--namespace|--super-prefix|--attr-source)/.test(
        text,
      )
    ) {
      j.block(
        'git_config_injection',
        `git ${text} can make git run repository- or model-chosen programs (core.pager, core.fsmonitor, hooks)`,
      );
      return;
    }
    index++;
  }
  const sub = args[index]?.text;
  const rest = args.slice(index + 1);
  if (
    rest.some(
      (word) =>
        /^--(upload-pack|receive-pack|exec|config|template|ext-diff|extcmd|tool)(=|$)/.test(
          word.text,
        ) || word.text === '-u',
    )
  ) {
    j.block('git_program_option', `git ${sub ?? ''} with an option that names a program to run`);
    return;
  }
  if (
    sub === 'config' &&
    !rest.some((word) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(word.text))
  ) {
    j.block('git_config_write', 'writing git configuration can make git run arbitrary programs');
  } else if (
    sub === 'filter-branch' ||
    sub === 'difftool' ||
    sub === 'mergetool' ||
    sub === 'bisect' ||
    (sub === 'submodule' && rest[0]?.text === 'foreach') ||
    (sub === 'rebase' && rest.some((word) => word.text === '-x' || word.text.startsWith('--exec')))
  ) {
    j.block('git_runs_commands', `git ${sub} runs shell commands`);
  } else if (
    sub === 'clone' ||
    sub === 'fetch' ||
    sub === 'pull' ||
    sub === 'push' ||
    sub === 'ls-remote' ||
    sub === 'submodule' ||
    sub === 'remote'
  ) {
    j.ask('git_network', `git ${sub} talks to a remote`);
  }
}

function judgeSed(args: readonly ShellWord[], j: ExecJudgement): void {
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
  if (inPlace) for (const file of files) j.write(file, 'sed -i target');
}

function judgeAwk(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
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

function judgePackageManager(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
  const sub = operands(args)[0]?.text;
  if (name === 'npx' || name === 'bunx' || sub === 'exec' || sub === 'x' || sub === 'dlx') {
    if (
      !args.some(
        (word) => word.text === '--no-install' || word.text === '--no' || word.text === '--offline',
      )
    ) {
      j.ask(
        'package_download',
        `${name} may download and run a package; add --no-install to run a local one`,
      );
    }
    return;
  }
  if (sub === undefined) return;
  if (
    [
      'publish',
      'login',
      'adduser',
      'logout',
      'token',
      'owner',
      'access',
      'unpublish',
      'deprecate',
    ].includes(sub) ||
    (sub === 'config' && operands(args)[1]?.text !== 'get')
  ) {
    j.block('package_registry_change', `${name} ${sub} changes registry state or configuration`);
    return;
  }
  if (
    [
      'install',
      'i',
      'ci',
      'add',
      'update',
      'up',
      'upgrade',
      'rebuild',
      'install-test',
      'it',
      'link',
    ].includes(sub)
  ) {
    if (!args.some((word) => word.text === '--ignore-scripts')) {
      j.block(
        'install_scripts',
        `${name} ${sub} runs packages' install scripts; add --ignore-scripts`,
      );
      return;
    }
    j.ask('package_network', `${name} ${sub} downloads packages`);
  }
}

function judgeHttpClient(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
  const outputs =
    name === 'curl'
      ? ['-o', '--output']
      : ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output'];
  const refused =
    name === 'curl'
      ? [
          '-K',
          '--config',
          '-x',
          '--proxy',
          '--unix-socket',
          '--resolve',
          '--connect-to',
          '--abstract-unix-socket',
          '--doh-url',
        ]
      : ['-e', '--execute', '-i', '--input-file', '--config', '--use-askpass', '-B', '--base'];
  const uploads = name === 'curl' ? ['-T', '--upload-file'] : ['--post-file', '--body-file'];
  let sawUrl = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    const [flag, inlineValue] =
      word.text.startsWith('--') && word.text.includes('=')
        ? [word.text.slice(0, word.text.indexOf('=')), word.text.slice(word.text.indexOf('=') + 1)]
        : [word.text, undefined];
    if (refused.includes(flag)) {
      j.block('http_client_option', `${name} ${flag} escapes the egress checks`);
      return;
    }
    const value = () =>
      inlineValue !== undefined ? { ...word, text: inlineValue } : args[++index];
    if (outputs.includes(flag)) {
      const target = value();
      if (target !== undefined) j.write(target, `${name} ${flag} file`);
    } else if (uploads.includes(flag)) {
      const source = value();
      if (source !== undefined) j.read(source);
    } else if (name === 'curl' && /^(-d|--data.*|-F|--form.*)$/.test(flag)) {
      const data = value();
      if (data !== undefined && /(^|=)[@<]/.test(data.text))
        j.read({ ...data, text: data.text.replace(/^.*?[@<]/, '') });
    } else if (word.text.startsWith('-')) {
      // Options with values we do not interpret are fine only when the value is not a URL; URLs are checked below.
    } else if (word.dynamic) {
      j.block(
        'dynamic_url',
        `${name} is given a computed argument; its destination cannot be checked`,
      );
    } else if (
      word.text.includes('://') ||
      /^[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}(:\d+)?(\/|$)/.test(word.text)
    ) {
      sawUrl = true;
      j.url(word.text.includes('://') ? word.text : `http://${word.text}`);
    }
  }
  if (!sawUrl)
    j.block(
      'unknown_destination',
      `${name} without a literal URL argument cannot be checked against the egress allowlist`,
    );
}

function judgeCopy(args: readonly ShellWord[], j: ExecJudgement): void {
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

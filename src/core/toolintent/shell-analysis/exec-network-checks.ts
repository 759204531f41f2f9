import { operands, type ExecJudgement } from './exec-judgement.js';
import type { ShellWord } from './shell-syntax.js';

/* Checks for programs that reach the network or a registry: git, package managers, curl and wget. */

export function judgeGit(args: readonly ShellWord[], j: ExecJudgement): void {
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
    // Under confinement only a push changes what lies outside; the proxy holds fetches.
    j.ask(
      j.confined && sub === 'push' ? 'git_push' : 'git_network',
      `git ${sub} talks to a remote`,
    );
  } else if (j.containment && isDestructiveGit(sub, rest)) {
    j.ask(
      'destructive_in_workspace',
      `git ${sub} discards work in the workspace that no undo of git restores`,
    );
  }
}

/** git commands that throw away uncommitted work: reset --hard, clean -f, checkout/restore of paths. */
function isDestructiveGit(sub: string | undefined, rest: readonly ShellWord[]): boolean {
  const texts = rest.map((word) => word.text);
  if (sub === 'reset') return texts.includes('--hard') || texts.includes('--merge');
  if (sub === 'clean') return texts.some((text) => /^-[a-zA-Z]*f/.test(text) || text === '--force');
  if (sub === 'checkout')
    return texts.includes('--') || texts.includes('.') || texts.includes('-f');
  if (sub === 'restore' || sub === 'stash')
    return sub === 'restore' || texts[0] === 'drop' || texts[0] === 'clear';
  return false;
}

export function judgePackageManager(
  name: string,
  args: readonly ShellWord[],
  j: ExecJudgement,
): void {
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
    // The registry is a host like any other: not on the egress allowlist, the install is final.
    if (j.containment)
      j.url(name === 'yarn' ? 'https://registry.yarnpkg.com/' : 'https://registry.npmjs.org/');
  }
}

export function judgeHttpClient(name: string, args: readonly ShellWord[], j: ExecJudgement): void {
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

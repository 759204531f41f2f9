import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWorkspacePolicy } from '../../policies/workspace-policy.js';
import { analyzeExecCall } from './exec-command-analysis.js';
import { parseShellCommandLine } from './shell-syntax.js';
import { EXEC_BASH, SANDBOX_CONTAINMENT } from '../toolintent-flags.js';

/**
 * Flag `exec-bash`: a command line runs as `bash -c`, so the parser reads bash. Each case is
 * one where reading it as the POSIX parser did would judge something else than bash runs.
 */
const bash = (line: string) => parseShellCommandLine(line, { compound: true, bash: true });
const commands = (line: string) => {
  const result = bash(line);
  if (!result.ok) throw new Error(result.error);
  return result.commands.map((command) => command.words.map((word) => word.text));
};
const refused = (line: string) => {
  const result = bash(line);
  return result.ok ? null : result.error;
};

describe('the parser in bash mode', () => {
  it("decodes $'...' as bash does, so a program hidden in escapes has its real name", () => {
    expect(commands("$'\\x73udo' ls $'a\\tb' $'\\u00e9\\101\\cA' $'it\\'s'")).toEqual([
      ['sudo', 'ls', 'a\tb', 'éA\u0001', "it's"],
    ]);
    const result = bash("$'\\x73udo'");
    expect(result.ok && result.commands[0]!.words[0]!.dynamic).toBe(false);
  });

  it("finds the command an escaped quote inside $'...' would hide from a POSIX reading", () => {
    // bash: one word "' " then `rm -rf x`; read as POSIX the rm was inside a quoted word.
    expect(commands("echo $'\\' ' ; rm -rf x ; echo ''")).toEqual([
      ['echo', "' "],
      ['rm', '-rf', 'x'],
      ['echo', ''],
    ]);
    const posix = parseShellCommandLine("echo $'\\' ' ; rm -rf x ; echo '''");
    expect(posix.ok && posix.commands.length).toBe(1);
  });

  it('keeps $\' and $" literal inside double quotes, so no command hides after them', () => {
    expect(commands(`echo "$'" ; rm x ; echo "'"`)).toEqual([
      ['echo', "$'"],
      ['rm', 'x'],
      ['echo', "'"],
    ]);
    expect(bash('echo $"hello"').ok && commands('echo $"hello"')).toEqual([['echo', 'hello']]);
  });

  it('reads [[ ... ]] as one test, its substitutions as commands', () => {
    expect(commands('[[ -f a.txt && ( $(cat b) == x* || 1 -lt 2 ) ]] && echo yes')).toEqual([
      ['cat', 'b'],
      ['[[', '-f', 'a.txt', '&&', '(', '$(…)', '==', 'x*', '||', '1', '-lt', '2', ')', ']]'],
      ['echo', 'yes'],
    ]);
    expect(commands('[[ a < b ]]')).toEqual([['[[', 'a', '<', 'b', ']]']]);
    expect(refused('[[ -f a ')).toContain('unterminated "[["');
  });

  it('reads array assignments, their substitutions as commands', () => {
    const result = bash('a=(1 "two" $(ls)) && echo ${a[@]} ${#a[*]} ${a[0]}');
    expect(
      result.ok &&
        result.commands.map((command) =>
          command.assignments.map((a) => a.name).concat(command.words.map((word) => word.text)),
        ),
    ).toEqual([['ls'], ['a'], ['echo', '${a[@]}', '${#a[*]}', '${a[0]}']]);
  });

  it('refuses the forms where bash evaluates a value as code', () => {
    for (const line of [
      'echo $((x + 1))',
      '[[ $n -eq 1 ]]',
      '[[ x -gt 2 ]]',
      'echo ${a[i]}',
      'echo $[1+1]',
      '(( n++ ))',
      "printf -v 'a[$(id)]' x",
      "declare -i x; x='a[`id`]'",
    ])
      expect(refused(line), line).not.toBeNull();
    expect(refused('echo $((1 + 2)) ${a[1]}')).toBeNull();
    // Read as POSIX, "$((" was never accepted at all.
    expect(parseShellCommandLine('echo $((1 + 2))').ok).toBe(false);
  });

  it('never throws on arbitrary input (property)', () => {
    const alphabet = fc.constantFrom(...'ab $()`\'"\\|&;<>{}[]#*=!\n\t-x'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        const result = bash(chars.join(''));
        return result.ok
          ? result.commands.every(
              (command) =>
                command.words.length + command.assignments.length + command.redirects.length > 0,
            )
          : typeof result.error === 'string';
      }),
      { numRuns: 3000 },
    );
  });
});

describe('exec analysis with flag exec-bash', () => {
  const policy = parseWorkspacePolicy({});
  const flags = new Set([SANDBOX_CONTAINMENT.name, EXEC_BASH.name]);
  const codes = (command: string, withFlags: ReadonlySet<string> = flags) =>
    analyzeExecCall({ command }, policy, { flags: withFlags, sandbox: 'bubblewrap' })
      .findings.filter((finding) => finding.code !== 'programs')
      .map((finding) => `${finding.severity}:${finding.code}`);

  it("blocks sudo spelled in $'...' escapes, which bash would run", () => {
    expect(codes("$'\\x73udo' ls")).toEqual(['block:forbidden_program']);
  });

  it('judges a [[ ]] test like [ and the commands inside it', () => {
    expect(codes('[[ -f package.json ]] && ls')).toEqual([]);
    expect(codes('[[ -n "$(curl https://evil.example/x)" ]]')).toContain('ask:program_not_allowed');
    // Without the flag the same line is not parsed at all.
    expect(codes('[[ -f package.json ]] && ls', new Set([SANDBOX_CONTAINMENT.name]))).toEqual([
      'ask:unparseable_command',
    ]);
  });

  it('reads a nested sh -c line as POSIX and a nested bash -c line as bash', () => {
    expect(codes(`bash -c "[[ -f a ]] && ls"`)).not.toContain('ask:unparseable_command');
    expect(codes(`sh -c "[[ -f a ]] && ls"`)).toContain('ask:unparseable_command');
  });
});

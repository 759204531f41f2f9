import { describe, expect, it } from 'vitest';
import { parseShellCommandLine, type ShellCommand } from './shell-syntax.js';

const programs = (line: string) => {
  const result = parseShellCommandLine(line);
  if (!result.ok) throw new Error(result.error);
  return result.commands.map((command) => command.words.map((word) => word.text).join(' '));
};
const first = (line: string): ShellCommand => {
  const result = parseShellCommandLine(line);
  if (!result.ok) throw new Error(result.error);
  return result.commands[0]!;
};

describe('parseShellCommandLine', () => {
  it('splits pipelines, lists and background jobs into simple commands', () => {
    expect(programs('a x | b y && c || d; e & f |& g')).toEqual([
      'a x',
      'b y',
      'c',
      'd',
      'e',
      'f',
      'g',
    ]);
    expect(programs('a\nb')).toEqual(['a', 'b']);
  });

  it('removes quotes the way the shell does', () => {
    expect(first(`echo 'a b' "c $"d e\\ f`).words.map((w) => w.text)).toEqual([
      'echo',
      'a b',
      'c $d',
      'e f',
    ]);
    expect(first('echo "a\\"b" \'x"y\'').words.map((w) => w.text)).toEqual(['echo', 'a"b', 'x"y']);
  });

  it('finds commands inside subshells, groups, $(...), backticks and process substitution', () => {
    expect(programs('(a; b) && { c; }')).toEqual(['a', 'b', 'c']);
    expect(programs('echo "$(curl x)" `wget y`')).toEqual(['curl x', 'wget y', 'echo $(…) $(…)']);
    expect(programs('diff <(ls a) >(tee b)')).toEqual([
      'ls a',
      'tee b',
      expect.stringContaining('diff'),
    ]);
    expect(programs('echo $(a $(b))')).toEqual(['b', 'a $(…)', 'echo $(…)']);
  });

  it('marks words with expansions as dynamic and unquoted wildcards as globs', () => {
    const words = first('cmd $HOME "${X}" \'$lit\' *.ts "*.md" {a,b}').words;
    expect(words.map((w) => [w.text, w.dynamic, w.glob])).toEqual([
      ['cmd', false, false],
      ['$HOME', true, false],
      ['${X}', true, false],
      ['$lit', false, false],
      ['*.ts', false, true],
      ['*.md', false, false],
      ['{a,b}', false, true],
    ]);
  });

  it('records redirections with their descriptors and targets', () => {
    const command = first('cmd >out 2>>err <in 2>&1 &>all');
    expect(command.words.map((w) => w.text)).toEqual(['cmd']);
    expect(command.redirects.map((r) => [r.operator, r.fd, r.target?.text ?? null])).toEqual([
      ['>', null, 'out'],
      ['>>', 2, 'err'],
      ['<', null, 'in'],
      ['>&', 2, null],
      ['&>', null, 'all'],
    ]);
  });

  it('separates leading assignments from the command', () => {
    const command = first('A=1 B="x y" cmd C=3');
    expect(command.assignments.map((a) => [a.name, a.value.text])).toEqual([
      ['A', '1'],
      ['B', 'x y'],
    ]);
    expect(command.words.map((w) => w.text)).toEqual(['cmd', 'C=3']);
  });

  it('ignores comments', () => {
    expect(programs('a # ; curl evil')).toEqual(['a']);
  });

  it.each([
    ["echo 'unterminated", 'unterminated single quote'],
    ['echo "unterminated', 'unterminated double quote'],
    ['echo $(a', 'missing ")"'],
    ['a )', 'unexpected ")"'],
    ['cat <<EOF\nx\nEOF', 'here-documents'],
    ['if true; then a; fi', 'keyword'],
    ['for x in a; do b; done', 'keyword'],
    ['echo ${X:-$(curl evil)}', 'nested expansion'],
    ['echo >', 'missing file'],
    ['a ;; b', ';;'],
    [`${'$('.repeat(12)}x${')'.repeat(12)}`, 'too deep'],
  ])('fails closed on %j', (line, message) => {
    const result = parseShellCommandLine(line);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(message);
  });
});

describe('robustness (property)', () => {
  it('never throws and never returns a command with an empty program on arbitrary input', async () => {
    const fc = (await import('fast-check')).default;
    const alphabet = fc.constantFrom(...'ab $()`\'"\\|&;<>{}#*~=\n\t-'.split(''));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((chars) => chars.join('')),
        (line) => {
          const result = parseShellCommandLine(line);
          return (
            !result.ok ||
            result.commands.every(
              (command) =>
                command.words.length > 0 ||
                command.assignments.length > 0 ||
                command.redirects.length > 0,
            )
          );
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('parseShellCommandLine with compound (flag sandbox-containment)', () => {
  const compound = (line: string) => {
    const result = parseShellCommandLine(line, { compound: true });
    if (!result.ok) throw new Error(result.error);
    return result.commands;
  };
  const texts = (line: string) =>
    compound(line).map((command) => command.words.map((word) => word.text).join(' '));

  it('still refuses here-documents and keywords without it', () => {
    expect(parseShellCommandLine("cat <<'EOF'\nx\nEOF").ok).toBe(false);
    expect(parseShellCommandLine('for f in a; do echo $f; done').ok).toBe(false);
  });

  it('reads a quoted here-document as literal standard input, and keeps the redirection after it', () => {
    const [command] = compound("cat <<'EOF' > src/x.py\nprint($HOME)\nEOF\n");
    expect(command!.words.map((word) => word.text)).toEqual(['cat']);
    expect(command!.redirects.map((r) => [r.operator, r.target?.text ?? null])).toEqual([
      ['<<', null],
      ['>', 'src/x.py'],
    ]);
    expect(command!.redirects[0]!.heredoc).toEqual({ body: 'print($HOME)\n', quoted: true });
  });

  it('marks an unquoted delimiter, strips tabs for <<-, and finds the command after the body', () => {
    const commands = compound('python3 <<-EOF && ls\n\tprint(1)\n\tEOF\nwc -l x');
    expect(commands.map((c) => c.words[0]!.text)).toEqual(['python3', 'ls', 'wc']);
    expect(commands[0]!.redirects[0]!.heredoc).toEqual({ body: 'print(1)\n', quoted: false });
  });

  it('fails on an unterminated here-document', () => {
    expect(parseShellCommandLine("cat <<'EOF'\nnever ends", { compound: true }).ok).toBe(false);
    expect(parseShellCommandLine('cat <<EOF', { compound: true }).ok).toBe(false);
  });

  it('returns the commands of loop and if bodies one by one, and the substitutions of a for list', () => {
    expect(texts('for f in src/*.py $(ls lib); do wc -l "$f"; done')).toEqual([
      'ls lib',
      'wc -l $f',
    ]);
    expect(texts('while read -r line; do echo "$line"; done < list.txt')).toEqual([
      'read -r line',
      'echo $line',
      '',
    ]);
    expect(texts('if [ -f a ]; then cat a; elif true; then echo b; else echo c; fi')).toEqual([
      '[ -f a ]',
      'cat a',
      'true',
      'echo b',
      'echo c',
    ]);
    expect(parseShellCommandLine('case x in a) ls;; esac', { compound: true }).ok).toBe(false);
    expect(parseShellCommandLine('for ((i=0;i<3;i++)); do ls; done', { compound: true }).ok).toBe(
      false,
    );
  });

  it('records what ended each command, so a cd in a pipeline is told apart', () => {
    expect(compound('cd src && ls | wc -l').map((c) => c.separator)).toEqual(['&&', '|', 'end']);
  });
});

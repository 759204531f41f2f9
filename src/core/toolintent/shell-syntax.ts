/**
 * A real tokenizer and parser for the POSIX shell syntax a model puts in an `exec` command
 * line: pipelines, `&&`, `||`, `;`, `&`, subshells, `{ }` groups, `$(...)`, backticks, process
 * substitution, quoting and redirections. Every simple command — including those nested inside
 * substitutions — is returned flat, so a rule judges each one. Anything it does not fully
 * understand (here-documents, control-flow keywords, unbalanced quotes, deep nesting) is an
 * error, and the caller fails closed.
 */

/** One shell word after quote removal. `dynamic` words contain an expansion whose value is unknown. */
export type ShellWord = {
  readonly text: string;
  readonly dynamic: boolean;
  /** Contains an unquoted glob or brace character, so the shell may expand it. */
  readonly glob: boolean;
};

export type ShellRedirect = {
  readonly operator: string;
  readonly fd: number | null;
  /** The file operand, or null for a descriptor duplication such as `2>&1`. */
  readonly target: ShellWord | null;
};

export type ShellCommand = {
  readonly assignments: readonly { readonly name: string; readonly value: ShellWord }[];
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  /** 0 for top-level commands; deeper for subshells and substitutions. */
  readonly depth: number;
};

export type ShellParseResult =
  | { readonly ok: true; readonly commands: readonly ShellCommand[] }
  | { readonly ok: false; readonly error: string };

const MAX_DEPTH = 8;
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'function',
  'select',
  '[[',
  ']]',
  'coproc',
]);
const META = new Set(['|', '&', ';', '<', '>', '(', ')', '\n', ' ', '\t']);

class ShellSyntaxFailure extends Error {}

/** Parses a shell command line into its simple commands. Never throws. */
export function parseShellCommandLine(line: string): ShellParseResult {
  try {
    const parser = new Parser(line);
    parser.parseList(null, 0);
    return { ok: true, commands: parser.commands };
  } catch (error) {
    if (error instanceof ShellSyntaxFailure) return { ok: false, error: error.message };
    throw error;
  }
}

type Building = {
  assignments: { name: string; value: ShellWord }[];
  words: ShellWord[];
  redirects: ShellRedirect[];
};

class Parser {
  readonly commands: ShellCommand[] = [];
  private position = 0;

  constructor(private readonly source: string) {}

  private fail(message: string): never {
    throw new ShellSyntaxFailure(`${message} at offset ${this.position}`);
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.position + offset];
  }

  /** Parses commands until the end, or until `terminator` (consumed). */
  parseList(terminator: ')' | null, depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    let current: Building = { assignments: [], words: [], redirects: [] };
    const flush = () => {
      if (
        current.words.length > 0 ||
        current.assignments.length > 0 ||
        current.redirects.length > 0
      ) {
        this.commands.push({ ...current, depth });
      }
      current = { assignments: [], words: [], redirects: [] };
    };
    for (;;) {
      const c = this.peek();
      if (c === undefined) {
        if (terminator !== null) this.fail(`missing "${terminator}"`);
        flush();
        return;
      }
      if (c === ' ' || c === '\t') {
        this.position++;
        continue;
      }
      if (c === '\\' && this.peek(1) === '\n') {
        this.position += 2;
        continue;
      }
      if (c === '#') {
        // At the top of this loop we are always at the start of a word, where `#` starts a comment.
        while (this.peek() !== undefined && this.peek() !== '\n') this.position++;
        continue;
      }
      if (c === ')') {
        if (terminator !== ')') this.fail('unexpected ")"');
        this.position++;
        flush();
        return;
      }
      if (c === '(') {
        if (current.words.length > 0 || current.assignments.length > 0) this.fail('unexpected "("');
        this.position++;
        this.parseList(')', depth + 1);
        continue;
      }
      if (c === ';' || c === '\n' || c === '|' || c === '&') {
        if (c === '&' && this.peek(1) === '>') {
          this.parseRedirect(current, null);
          continue;
        }
        if (c === ';' && this.peek(1) === ';') this.fail('unsupported ";;"');
        this.position +=
          (c === '|' || c === '&') && (this.peek(1) === c || (c === '|' && this.peek(1) === '&'))
            ? 2
            : 1;
        flush();
        continue;
      }
      if (c === '<' || c === '>') {
        if (this.peek(1) === '(') {
          current.words.push(this.parseWord(depth));
          continue;
        }
        this.parseRedirect(current, null);
        continue;
      }
      if (/[0-9]/.test(c)) {
        const match = /^[0-9]+(?=[<>])/.exec(this.source.slice(this.position));
        if (match !== null && this.source[this.position + match[0].length + 1] !== '(') {
          this.position += match[0].length;
          this.parseRedirect(current, Number(match[0]));
          continue;
        }
      }
      const start = this.position;
      const word = this.parseWord(depth);
      const rawWord = this.source.slice(start, this.position);
      if (current.words.length === 0) {
        const assignment = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(rawWord);
        if (assignment !== null) {
          const name = assignment[1]!;
          current.assignments.push({
            name,
            value: { ...word, text: word.text.slice(word.text.indexOf('=') + 1) },
          });
          continue;
        }
        if (
          !word.dynamic &&
          (word.text === '{' || word.text === '}' || word.text === '!') &&
          rawWord === word.text
        )
          continue;
        if (!word.dynamic && KEYWORDS.has(word.text) && rawWord === word.text)
          this.fail(`unsupported shell keyword "${word.text}"`);
      }
      current.words.push(word);
    }
  }

  private parseRedirect(current: Building, fd: number | null): void {
    const rest = this.source.slice(this.position);
    const match = /^(&>>|&>|<<<|<<-|<<|<>|>>|>\||>&|<&|>|<)/.exec(rest);
    if (match === null) this.fail('bad redirection');
    const operator = match[0];
    this.position += operator.length;
    if (operator === '<<' || operator === '<<-') this.fail('here-documents are not supported');
    while (this.peek() === ' ' || this.peek() === '\t') this.position++;
    if (
      (operator === '>&' || operator === '<&') &&
      /^([0-9]+|-)(?=$|[\s|&;<>()])/.test(this.source.slice(this.position))
    ) {
      while (/[0-9-]/.test(this.peek() ?? '')) this.position++;
      current.redirects.push({ operator, fd, target: null });
      return;
    }
    const next = this.peek();
    if (next === undefined || META.has(next)) this.fail(`missing file after "${operator}"`);
    const target = this.parseWord(0);
    current.redirects.push({ operator: operator === '>&' ? '&>' : operator, fd, target });
  }

  /** Reads one word, removing quotes and parsing nested substitutions into `commands`. */
  private parseWord(depth: number): ShellWord {
    let text = '';
    let dynamic = false;
    let glob = false;
    for (;;) {
      const c = this.peek();
      if (c === undefined) break;
      if (META.has(c)) {
        if ((c === '<' || c === '>') && this.peek(1) === '(') {
          this.position += 2;
          this.parseList(')', depth + 1);
          dynamic = true;
          text += '\u0000procsub';
          continue;
        }
        break;
      }
      if (c === '\\') {
        const next = this.peek(1);
        if (next === undefined) this.fail('trailing backslash');
        this.position += 2;
        if (next !== '\n') text += next;
        continue;
      }
      if (c === "'") {
        const end = this.source.indexOf("'", this.position + 1);
        if (end < 0) this.fail('unterminated single quote');
        text += this.source.slice(this.position + 1, end);
        this.position = end + 1;
        continue;
      }
      if (c === '"') {
        this.position++;
        for (;;) {
          const d = this.peek();
          if (d === undefined) this.fail('unterminated double quote');
          if (d === '"') {
            this.position++;
            break;
          }
          if (d === '\\') {
            const next = this.peek(1);
            if (next !== undefined && '$`"\\\n'.includes(next)) {
              this.position += 2;
              if (next !== '\n') text += next;
            } else {
              this.position++;
              text += '\\';
            }
            continue;
          }
          if (d === '$' || d === '`') {
            text += this.parseExpansion(depth);
            dynamic = true;
            continue;
          }
          text += d;
          this.position++;
        }
        continue;
      }
      if (c === '$' || c === '`') {
        text += this.parseExpansion(depth);
        dynamic = true;
        continue;
      }
      if (c === '*' || c === '?' || c === '[' || c === '{') {
        glob = true;
      }
      text += c;
      this.position++;
    }
    return { text, dynamic, glob };
  }

  /** Consumes one `$...` or backtick expansion; nested commands are parsed. Returns a placeholder. */
  private parseExpansion(depth: number): string {
    const c = this.peek();
    if (c === '`') {
      let inner = '';
      this.position++;
      for (;;) {
        const d = this.peek();
        if (d === undefined) this.fail('unterminated backtick');
        if (d === '`') {
          this.position++;
          break;
        }
        if (d === '\\' && '$`\\'.includes(this.peek(1) ?? '')) {
          inner += this.peek(1);
          this.position += 2;
          continue;
        }
        inner += d;
        this.position++;
      }
      const nested = new Parser(inner);
      nested.parseList(null, depth + 1);
      this.commands.push(
        ...nested.commands.map((command) => ({
          ...command,
          depth: Math.max(command.depth, depth + 1),
        })),
      );
      return '$(…)';
    }
    // c === '$'
    const next = this.peek(1);
    if (next === '(' && this.peek(2) === '(') {
      const start = this.position;
      let level = 0;
      while (this.peek() !== undefined) {
        const d = this.peek()!;
        if (d === '(') level++;
        if (d === ')') level--;
        if (d === '$' || d === '`') {
          if (this.position !== start)
            this.fail('substitution inside arithmetic expansion is not supported');
        }
        this.position++;
        if (level === 0) break;
      }
      if (level !== 0) this.fail('unterminated arithmetic expansion');
      return '$((…))';
    }
    if (next === '(') {
      this.position += 2;
      this.parseList(')', depth + 1);
      return '$(…)';
    }
    if (next === '{') {
      const end = this.source.indexOf('}', this.position);
      if (end < 0) this.fail('unterminated "${"');
      const body = this.source.slice(this.position + 2, end);
      if (/[$`]/.test(body)) this.fail('nested expansion inside "${...}" is not supported');
      this.position = end + 1;
      return `\${${body}}`;
    }
    if (next === "'") {
      // ANSI-C quoting: decoded by the shell, so its value is treated as unknown.
      const end = this.source.indexOf("'", this.position + 2);
      if (end < 0) this.fail("unterminated $'...'");
      this.position = end + 1;
      return "$'…'";
    }
    const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9?#$!@*-])/.exec(this.source.slice(this.position));
    if (name !== null) {
      this.position += name[0].length;
      return name[0];
    }
    // A lone `$` is literal.
    this.position++;
    return '$';
  }
}

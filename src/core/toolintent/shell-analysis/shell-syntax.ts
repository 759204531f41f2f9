/**
 * A real tokenizer and parser for the POSIX shell syntax a model puts in an `exec` command
 * line: pipelines, `&&`, `||`, `;`, `&`, subshells, `{ }` groups, `$(...)`, backticks, process
 * substitution, quoting and redirections. Every simple command — including those nested inside
 * substitutions — is returned flat, so a rule judges each one. Anything it does not fully
 * understand (unbalanced quotes, deep nesting, `case`, `[[`) is an error, and the caller fails
 * closed. Here-documents and the keywords of `if`/`for`/`while`/`until` are parsed only with
 * `compound` (behaviour flag `sandbox-containment`); without it they are errors, as they were.
 * With `bash` (flag `exec-bash`, the line runs as `bash -c`) it reads bash: `$'...'` decoded,
 * `$"..."`, `[[ ... ]]` conditionals and array assignments; forms where bash would evaluate a
 * value as code (see bash-syntax.ts) are errors.
 */
import {
  ARITHMETIC_TESTS,
  hasEvaluatedSubscript,
  hasSubstitutionInSubscript,
  isIntegerLiteral,
  readAnsiCQuote,
} from './bash-syntax.js';

/** One shell word after quote removal. `dynamic` words contain an expansion whose value is unknown. */
export type ShellWord = {
  readonly text: string;
  readonly dynamic: boolean;
  /** Contains an unquoted glob or brace character, so the shell may expand it. */
  readonly glob: boolean;
};

/** The text a here-document feeds to standard input. */
export type ShellHeredoc = {
  readonly body: string;
  /** The delimiter was quoted (`<<'EOF'`), so the body is literal: the shell expands nothing. */
  readonly quoted: boolean;
};

export type ShellRedirect = {
  readonly operator: string;
  readonly fd: number | null;
  /** The file operand, or null for a descriptor duplication such as `2>&1` or a here-document. */
  readonly target: ShellWord | null;
  /** Present for `<<` and `<<-`. */
  readonly heredoc?: ShellHeredoc;
};

export type ShellCommand = {
  readonly assignments: readonly { readonly name: string; readonly value: ShellWord }[];
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  /** 0 for top-level commands; deeper for subshells and substitutions. */
  readonly depth: number;
  /**
   * What ended the command (`|`, `&&`, `||`, `;`, `&`, a newline, `)`, a keyword, or `end`);
   * recorded only when parsing `compound`, so a `cd` in a pipeline is not taken as a directory change.
   */
  readonly separator?: string;
};

export type ShellParseOptions = {
  /** Parse here-documents and `if`/`for`/`while`/`until` (flag `sandbox-containment`). */
  readonly compound?: boolean;
  /** Read the line as bash reads it (flag `exec-bash`). */
  readonly bash?: boolean;
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

/** Keywords that only separate the simple commands of a compound command. */
const COMPOUND_SEPARATORS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
]);

/** Parses a shell command line into its simple commands. Never throws. */
export function parseShellCommandLine(
  line: string,
  options: ShellParseOptions = {},
): ShellParseResult {
  try {
    const parser = new Parser(line, options.compound === true, options.bash === true);
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

type PendingHeredoc = {
  readonly delimiter: string;
  readonly stripTabs: boolean;
  /** The redirect's here-document, whose body is filled in once the line has ended. */
  readonly heredoc: { body: string; quoted: boolean };
};

class Parser {
  readonly commands: ShellCommand[] = [];
  private position = 0;
  private pendingHeredocs: PendingHeredoc[] = [];

  constructor(
    private readonly source: string,
    private readonly compound: boolean,
    private readonly bash: boolean,
  ) {}

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
    const flush = (separator: string) => {
      if (
        current.words.length > 0 ||
        current.assignments.length > 0 ||
        current.redirects.length > 0
      ) {
        this.commands.push({ ...current, depth, ...(this.compound ? { separator } : {}) });
      }
      current = { assignments: [], words: [], redirects: [] };
    };
    for (;;) {
      const c = this.peek();
      if (c === undefined) {
        if (terminator !== null) this.fail(`missing "${terminator}"`);
        if (this.pendingHeredocs.length > 0) this.fail('unterminated here-document');
        flush('end');
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
        flush(')');
        return;
      }
      if (c === '(') {
        if (current.words.length > 0 || current.assignments.length > 0) this.fail('unexpected "("');
        if (this.bash && this.peek(1) === '(')
          this.fail('an arithmetic command "((...))" evaluates values as code');
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
        const length =
          (c === '|' || c === '&') && (this.peek(1) === c || (c === '|' && this.peek(1) === '&'))
            ? 2
            : 1;
        const separator = this.source.slice(this.position, this.position + length);
        this.position += length;
        flush(separator);
        if (c === '\n') this.readHeredocBodies();
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
      if (this.bash && hasSubstitutionInSubscript(word.text))
        this.fail('a subscript with a substitution in it, which bash may evaluate as code');
      if (current.words.length === 0) {
        const assignment = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(rawWord);
        if (this.bash && assignment !== null && rawWord === assignment[0] && this.peek() === '(') {
          this.parseArrayValue(depth);
          current.assignments.push({
            name: assignment[1]!,
            value: { text: '(…)', dynamic: true, glob: false },
          });
          continue;
        }
        if (this.bash && current.assignments.length === 0 && !word.dynamic && rawWord === '[[') {
          this.parseConditional(current, depth);
          continue;
        }
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
        if (
          this.compound &&
          current.assignments.length === 0 &&
          !word.dynamic &&
          rawWord === word.text &&
          (COMPOUND_SEPARATORS.has(word.text) || word.text === 'for')
        ) {
          flush(word.text);
          if (word.text === 'for') this.skipForHeader(depth);
          continue;
        }
        if (!word.dynamic && KEYWORDS.has(word.text) && rawWord === word.text)
          this.fail(`unsupported shell keyword "${word.text}"`);
      }
      current.words.push(word);
    }
  }

  /** `NAME=(words...)`, bash's array assignment: the words are data, their substitutions commands. */
  private parseArrayValue(depth: number): void {
    this.position++; // (
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('unterminated array assignment');
      if (c === ' ' || c === '\t' || c === '\n') {
        this.position++;
        continue;
      }
      if (c === ')') {
        this.position++;
        return;
      }
      if (META.has(c)) this.fail(`unexpected "${c}" in an array assignment`);
      this.parseWord(depth);
    }
  }

  /**
   * `[[ ... ]]` (bash): one command whose words are the test's operands and operators; `<`,
   * `>`, `(`, `)`, `&&` and `||` are operators there, not redirections or lists. The operands
   * of an arithmetic comparison must be literal integers (bash evaluates them as code).
   */
  private parseConditional(current: Building, depth: number): void {
    const words: ShellWord[] = [{ text: '[[', dynamic: false, glob: false }];
    const raw: string[] = ['[['];
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t') {
        this.position++;
        continue;
      }
      if (c === '\\' && this.peek(1) === '\n') {
        this.position += 2;
        continue;
      }
      if (c === undefined || c === '\n') this.fail('unterminated "[["');
      const operator = /^(&&|\|\||<|>|\(|\))/.exec(this.source.slice(this.position));
      if (operator !== null) {
        this.position += operator[0].length;
        words.push({ text: operator[0], dynamic: false, glob: false });
        raw.push(operator[0]);
        continue;
      }
      if (META.has(c)) this.fail(`unexpected "${c}" inside "[[ ]]"`);
      const start = this.position;
      const word = this.parseWord(depth);
      const text = this.source.slice(start, this.position);
      if (text === ']]') break;
      words.push(word);
      raw.push(text);
    }
    for (let index = 1; index < words.length; index++) {
      if (!ARITHMETIC_TESTS.has(raw[index]!)) continue;
      for (const operand of [words[index - 1], words[index + 1]])
        if (operand === undefined || operand.dynamic || !isIntegerLiteral(operand.text))
          this.fail(
            `"[[ ... ${raw[index]} ... ]]" evaluates its operands as code; compare literal numbers`,
          );
    }
    current.words.push(...words, { text: ']]', dynamic: false, glob: false });
  }

  private parseRedirect(current: Building, fd: number | null): void {
    const rest = this.source.slice(this.position);
    const match = /^(&>>|&>|<<<|<<-|<<|<>|>>|>\||>&|<&|>|<)/.exec(rest);
    if (match === null) this.fail('bad redirection');
    const operator = match[0];
    this.position += operator.length;
    if (operator === '<<' || operator === '<<-') {
      if (!this.compound) this.fail('here-documents are not supported');
      this.parseHeredocStart(current, fd, operator === '<<-');
      return;
    }
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

  /** `<<DELIM`: the body starts after the end of the current line (see readHeredocBodies). */
  private parseHeredocStart(current: Building, fd: number | null, stripTabs: boolean): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.position++;
    const next = this.peek();
    if (next === undefined || META.has(next)) this.fail('missing here-document delimiter');
    const start = this.position;
    const word = this.parseWord(0);
    const raw = this.source.slice(start, this.position);
    if (word.dynamic || word.text.length === 0 || word.text.includes('\n'))
      this.fail('a here-document delimiter must be a plain word');
    const heredoc = { body: '', quoted: /['"\\]/.test(raw) };
    this.pendingHeredocs.push({ delimiter: word.text, stripTabs, heredoc });
    current.redirects.push({ operator: stripTabs ? '<<-' : '<<', fd, target: null, heredoc });
  }

  /** After a newline: the bodies of the here-documents started on the line just ended. */
  private readHeredocBodies(): void {
    for (const pending of this.pendingHeredocs) {
      for (;;) {
        if (this.position >= this.source.length) this.fail('unterminated here-document');
        const end = this.source.indexOf('\n', this.position);
        const line = this.source.slice(this.position, end < 0 ? this.source.length : end);
        this.position = end < 0 ? this.source.length : end + 1;
        const compared = pending.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === pending.delimiter) break;
        pending.heredoc.body += `${compared}\n`;
      }
    }
    this.pendingHeredocs = [];
  }

  /** `for NAME [in WORDS]`: the list's words are data (their substitutions are still commands). */
  private skipForHeader(depth: number): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.position++;
    if (this.peek() === '(') this.fail('arithmetic "for ((...))" is not supported');
    const name = this.parseWord(depth);
    if (name.dynamic || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text))
      this.fail('"for" needs a variable name');
    while (this.peek() === ' ' || this.peek() === '\t') this.position++;
    if (!/^in(?=[\s;]|$)/.test(this.source.slice(this.position))) return;
    this.position += 2;
    for (;;) {
      while (this.peek() === ' ' || this.peek() === '\t') this.position++;
      const c = this.peek();
      if (c === undefined || c === ';' || c === '\n') return;
      if (META.has(c)) this.fail(`unexpected "${c}" in a "for" list`);
      this.parseWord(depth);
    }
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
          if (this.bash && d === '$' && (this.peek(1) === "'" || this.peek(1) === '"')) {
            text += '$'; // inside double quotes `$'` and `$"` quote nothing
            this.position++;
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
      if (this.bash && c === '$' && this.peek(1) === "'") {
        // Decoded by bash as it parses the line, so the value is known.
        const quoted = readAnsiCQuote(this.source, this.position + 2);
        if (quoted === null) this.fail("unterminated $'...'");
        this.position = quoted.end;
        if (quoted.text.includes('\u0000')) dynamic = true; // bash cuts the word at a NUL
        text += quoted.text;
        continue;
      }
      if (this.bash && c === '$' && this.peek(1) === '"') {
        this.position++; // a translated string: the double-quoted text, maybe replaced
        dynamic = true;
        continue;
      }
      if (this.bash && c === '$' && this.peek(1) === '[')
        this.fail('"$[...]" arithmetic evaluates values as code');
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
      const nested = new Parser(inner, this.compound, this.bash);
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
      // Read as POSIX the scan ended at the `$` (level 0), so "$((" was never accepted; bash reads it whole.
      if (this.bash) this.position++;
      let level = 0;
      while (this.peek() !== undefined) {
        const d = this.peek()!;
        if (d === '(') level++;
        if (d === ')') level--;
        if (d === '$' || d === '`') {
          if (this.position !== start)
            this.fail('substitution inside arithmetic expansion is not supported');
        }
        if (this.bash && /[A-Za-z_]/.test(d))
          this.fail('bash evaluates a variable named in "$((...))" as code; use literal numbers');
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
      if (this.bash && hasEvaluatedSubscript(body))
        this.fail('an array subscript that is not a literal number, which bash evaluates as code');
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

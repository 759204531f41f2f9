/**
 * Finds the GNU sed commands that reach outside a text filter: `e` (run a shell command),
 * `w`/`W` (write a file), `r`/`R` (read a file), and the `e`/`w` flags of `s`. A real scan of
 * the script's commands and addresses, not a substring search; anything unrecognized is
 * reported so the caller fails closed.
 */
export type SedScriptIssue = {
  readonly code: 'sed_exec' | 'sed_file_io' | 'sed_unparsed';
  readonly detail: string;
};

const SIMPLE = new Set([
  '=',
  'd',
  'D',
  'g',
  'G',
  'h',
  'H',
  'l',
  'n',
  'N',
  'p',
  'P',
  'q',
  'Q',
  'x',
  'z',
  'F',
  '{',
  '}',
]);

export function findSedScriptIssues(script: string): SedScriptIssue[] {
  const issues: SedScriptIssue[] = [];
  let i = 0;
  const at = () => script[i];
  const skipBlanks = () => {
    while (i < script.length && /[\s;]/.test(script[i]!)) i++;
  };
  const readDelimited = (delimiter: string): boolean => {
    // Reads up to the next unescaped delimiter; returns false when unterminated.
    while (i < script.length) {
      const c = script[i]!;
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '\n' && delimiter !== '\n') return false;
      i++;
      if (c === delimiter) return true;
    }
    return false;
  };
  const skipAddress = (): boolean => {
    for (;;) {
      const c = at();
      if (c === undefined) return true;
      if (/[0-9$,~+!\s]/.test(c)) {
        i++;
        continue;
      }
      if (c === '/') {
        i++;
        if (!readDelimited('/')) return false;
        while (at() === 'I' || at() === 'M') i++;
        continue;
      }
      if (c === '\\') {
        const delimiter = script[i + 1];
        if (delimiter === undefined) return false;
        i += 2;
        if (!readDelimited(delimiter)) return false;
        continue;
      }
      return true;
    }
  };
  while (i < script.length) {
    skipBlanks();
    if (i >= script.length) break;
    if (at() === '#') {
      while (i < script.length && at() !== '\n') i++;
      continue;
    }
    if (!skipAddress()) {
      issues.push({ code: 'sed_unparsed', detail: 'unterminated address' });
      return issues;
    }
    const command = at();
    if (command === undefined) break;
    i++;
    if (SIMPLE.has(command)) continue;
    if (command === 's' || command === 'y') {
      const delimiter = at();
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') {
        issues.push({ code: 'sed_unparsed', detail: `bad ${command} delimiter` });
        return issues;
      }
      i++;
      if (!readDelimited(delimiter) || !readDelimited(delimiter)) {
        issues.push({ code: 'sed_unparsed', detail: `unterminated ${command} command` });
        return issues;
      }
      if (command === 's') {
        while (i < script.length && /[gpiImMe0-9w]/.test(script[i]!)) {
          const flag = script[i]!;
          if (flag === 'e')
            issues.push({
              code: 'sed_exec',
              detail: 's///e runs the pattern space as a shell command',
            });
          if (flag === 'w') {
            issues.push({ code: 'sed_file_io', detail: 's///w writes a file' });
            while (i < script.length && script[i] !== '\n') i++;
            break;
          }
          i++;
        }
      }
      continue;
    }
    if (command === 'e') {
      issues.push({ code: 'sed_exec', detail: 'the e command runs a shell command' });
    } else if ('wWrR'.includes(command)) {
      issues.push({ code: 'sed_file_io', detail: `the ${command} command reads or writes a file` });
    } else if (!'aic:btTvL'.includes(command)) {
      issues.push({
        code: 'sed_unparsed',
        detail: `unknown sed command ${JSON.stringify(command)}`,
      });
      return issues;
    }
    // These take the rest of the line (text, label or file name) as their argument.
    while (
      i < script.length &&
      script[i] !== '\n' &&
      !(';}'.includes(script[i]!) && ':btTv'.includes(command))
    )
      i++;
  }
  return issues;
}

import { createInterface } from 'node:readline/promises';

/** The process's terminal: a live status line on stderr, and questions on stdin. */
export type Terminal = {
  /** Whether stderr is a terminal (status lines are written only then). */
  readonly isTerminal: boolean;
  status(text: string): void;
  clearStatus(): void;
  ask(question: string, signal: AbortSignal): Promise<string>;
};

export function createTerminal(): Terminal {
  const stream = process.stderr;
  const isTerminal = stream.isTTY === true;
  let shown = false;
  const clearStatus = () => {
    if (!shown) return;
    stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    isTerminal,
    status(text) {
      if (!isTerminal) return;
      clearStatus();
      if (text === '') return;
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(text.length > width ? `${text.slice(0, width - 1)}…` : text);
      shown = true;
    },
    clearStatus,
    async ask(question, signal) {
      clearStatus();
      const readline = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await readline.question(question, { signal });
      } finally {
        readline.close();
      }
    },
  };
}

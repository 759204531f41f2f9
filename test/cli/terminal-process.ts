import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CORREX_CLI, cliEnvironment, type CliResult } from './cli-process.js';

const PTY_RUN = join(import.meta.dirname, '..', 'support', 'pty-run.py');

/** A correx process on a real pseudo-terminal (python3's pty), typed into like a person would. */
export type TerminalCli = {
  /** Types `keys` into the terminal ("\r" is Enter, "\x03" Ctrl-C, "\x04" Ctrl-D). */
  type(keys: string): void;
  /** Resolves once the terminal has shown `text` at least `times` times. */
  waitFor(text: string, times?: number): Promise<void>;
  readonly screen: () => string;
  readonly exited: Promise<CliResult>;
};

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

export function startCorrexInTerminal(
  home: string,
  args: readonly string[],
  extra: NodeJS.ProcessEnv = {},
): TerminalCli {
  const child = spawn('python3', [PTY_RUN, process.execPath, ...CORREX_CLI, ...args], {
    env: cliEnvironment(home, extra),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const waiters: {
    text: string;
    times: number;
    resolve: () => void;
    reject: (e: Error) => void;
  }[] = [];
  const check = () => {
    for (const waiter of [...waiters])
      if (occurrences(screen, waiter.text) >= waiter.times) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    check();
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      for (const waiter of waiters.splice(0))
        waiter.reject(
          new Error(
            `correx exited (${code}) before showing ${JSON.stringify(waiter.text)}:\n${screen}`,
          ),
        );
      resolve({ code: code ?? -1, stdout: screen, stderr });
    }),
  );
  return {
    type: (keys) => child.stdin.write(keys),
    waitFor: (text, times = 1) =>
      new Promise((resolve, reject) => {
        waiters.push({ text, times, resolve, reject });
        check();
      }),
    screen: () => screen,
    exited,
  };
}

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { BUNDLED_CLI } from '../support/compile-cli.js';

const run = promisify(execFile);

/**
 * The arguments to node that start the CLI: the sources bundled by the tests' global setup, as
 * `bin/correx` runs them (test/cli/bundled-cli.test.ts holds the module-by-module build to it).
 */
export const CORREX_CLI: readonly string[] = [BUNDLED_CLI];

export type CliResult = { code: number; stdout: string; stderr: string };

/** The environment of a correx child process: a temporary CORREX_HOME, no inherited model settings. */
export function cliEnvironment(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CORREX_HOME: home, TMPDIR: home, ...extra };
  for (const key of [
    'CORREX_STORE',
    'OPENAI_BASE_URL',
    'OPENAI_API_KEY',
    'CORREX_MODEL',
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'ANTHROPIC_MODEL',
  ])
    if (!(key in extra)) delete env[key];
  return env;
}

/** Runs the real CLI in a child process and waits for it. */
export async function correx(
  home: string,
  args: readonly string[],
  extra: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CORREX_CLI, ...args], {
      env: cliEnvironment(home, extra),
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A CLI child process left running, with its output collected as it comes. */
export type RunningCli = {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** Resolves once stdout matches `pattern` (rejects if the process ends first). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  readonly exited: Promise<CliResult>;
};

export function startCorrex(
  home: string,
  args: readonly string[],
  extra: NodeJS.ProcessEnv = {},
): RunningCli {
  const child = spawn(process.execPath, [...CORREX_CLI, ...args], {
    env: cliEnvironment(home, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: {
    pattern: RegExp;
    resolve: (m: RegExpExecArray) => void;
    reject: (e: Error) => void;
  }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(stdout);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    check();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      for (const waiter of waiters.splice(0))
        waiter.reject(
          new Error(
            `correx exited (${code}) before printing ${waiter.pattern}:\n${stdout}\n${stderr}`,
          ),
        );
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
  return {
    child,
    output: () => stdout + stderr,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve, reject });
        check();
      }),
  };
}

import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** How a session runner in its own OS process (crash-child.ts) ended. */
export type ChildResult = {
  signal: NodeJS.Signals | null;
  code: number | null;
  outcome?: { status: string; waiting: { kind: string; callId?: string } | null };
};

const CHILD = join(import.meta.dirname, 'crash-child.ts');

/** Starts crash-child.ts with `args` and extra `env`; `exited` settles when it ends, however. */
export function startChild(
  args: string[],
  env: Record<string, string> = {},
): { readonly child: ChildProcess; readonly exited: Promise<ChildResult> } {
  const child = fork(CHILD, args, {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let outcome: ChildResult['outcome'];
  child.on('message', (message: { type: string } & NonNullable<ChildResult['outcome']>) => {
    if (message.type === 'outcome') outcome = { status: message.status, waiting: message.waiting };
  });
  const exited = new Promise<ChildResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      resolve({ code, signal, ...(outcome === undefined ? {} : { outcome }) }),
    );
  });
  return { child, exited };
}

/**
 * Runs crash-child.ts to its end; with `killWhen`, SIGKILLs it as soon as that holds (a state
 * of the world, polled, never a delay).
 */
export async function runChild(
  args: string[],
  env: Record<string, string> = {},
  killWhen?: () => boolean,
): Promise<ChildResult> {
  const { child, exited } = startChild(args, env);
  const watch =
    killWhen === undefined
      ? undefined
      : setInterval(() => {
          if (killWhen()) child.kill('SIGKILL');
        }, 5);
  try {
    return await exited;
  } finally {
    clearInterval(watch);
  }
}

/**
 * The environment that pauses the child at the fault point `at` (see
 * src/infrastructure/system/fault-point.ts), and the file it writes once paused there.
 */
export function pauseAt(
  at: string,
  folder: string,
): { env: Record<string, string>; signal: string } {
  const signal = join(folder, `paused-${at.replace(/[^a-z0-9]+/gi, '-')}`);
  return { env: { CORREX_TEST_PAUSE_AT: at, CORREX_TEST_PAUSE_SIGNAL: signal }, signal };
}

/**
 * Runs crash-child.ts until it pauses at `at`, calls `whilePaused`, then SIGKILLs it there.
 * Fails when the child ends without reaching the point.
 */
export async function killWhenPaused(
  args: string[],
  env: Record<string, string>,
  at: string,
  folder: string,
  whilePaused: () => void | Promise<void> = () => undefined,
): Promise<ChildResult> {
  const pause = pauseAt(at, folder);
  const { child, exited } = startChild(args, { ...env, ...pause.env });
  let ended: ChildResult | undefined;
  void exited.then((result) => (ended = result));
  while (!existsSync(pause.signal)) {
    if (ended !== undefined)
      throw new Error(`the child ended (${JSON.stringify(ended)}) before it reached ${at}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await whilePaused();
  child.kill('SIGKILL');
  return exited;
}

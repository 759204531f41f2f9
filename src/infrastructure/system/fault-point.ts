import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/*
 * Named points where a test can stop this very process, so that a `kill -9` lands at a recorded
 * moment (between a write's temporary file and its rename, say) instead of after a wall-clock
 * delay that a busy machine stretches past the window. Honoured only under a test runner
 * (`VITEST` or `NODE_ENV=test` in the environment, which forked children inherit); a product
 * process never reads the other variables.
 *
 * CORREX_TEST_PAUSE_AT=<name>[@<n>]  pause at the n-th (default first) pass of the named point;
 * CORREX_TEST_PAUSE_SIGNAL=<file>    written (pid and point, atomically) once paused there.
 * The process then waits until `<file>.continue` exists, or until it is killed.
 */

/** The named points (one place, so a test names what the code passes). */
export const FAULT_POINTS = {
  /** A file tool's new bytes are written somewhere, and not yet in place at the target. */
  writeContentPending: 'write-file:content-pending',
} as const;

export type FaultPointName = (typeof FAULT_POINTS)[keyof typeof FAULT_POINTS];

type Pause = { readonly name: string; readonly nth: number; readonly signal: string };

function configuredPause(): Pause | null {
  const env = process.env;
  if (env.VITEST === undefined && env.NODE_ENV !== 'test') return null;
  const at = env.CORREX_TEST_PAUSE_AT;
  const signal = env.CORREX_TEST_PAUSE_SIGNAL;
  if (at === undefined || at === '' || signal === undefined || signal === '') return null;
  const [name = '', nth = '1'] = at.split('@');
  return { name, nth: Number(nth), signal };
}

const pause = configuredPause();
const passes = new Map<string, number>();

/** Passes the named point; under a test that asked to pause here, waits as the header says. */
export async function faultPoint(name: FaultPointName): Promise<void> {
  if (pause === null || pause.name !== name) return;
  const count = (passes.get(name) ?? 0) + 1;
  passes.set(name, count);
  if (count !== pause.nth) return;
  const partial = `${pause.signal}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ pid: process.pid, point: name, pass: count }));
  renameSync(partial, pause.signal);
  while (!existsSync(`${pause.signal}.continue`)) await sleep(10);
}

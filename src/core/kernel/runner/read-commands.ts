import type { RunningEffect } from './running-effect.js';
import type { SessionLog } from './session-log.js';

/**
 * Waits for commands issued in this process and reads them, and with `look` whatever else
 * was appended (by another process); true when anything new was read. Without `look`, what
 * another process appended shows at the next append, as a conflict.
 */
export async function readCommands(
  log: SessionLog,
  running: RunningEffect,
  look = true,
): Promise<boolean> {
  const before = log.state.session.lastSequence;
  if ((await running.recorded()) || look) await log.catchUp();
  return log.state.session.lastSequence !== before;
}

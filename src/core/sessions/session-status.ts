import { z } from 'zod';

/**
 * Where a session stands in its lifecycle: `new` (no events yet) → created → running ⇄ paused →
 * completed | failed | cancelled. The last three are final.
 */
export const SESSION_STATUSES = [
  'new',
  'created',
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
] as const;

export const SessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** The lifecycle commands `decideLifecycle` accepts, by name. */
export const LIFECYCLE_COMMANDS = [
  'create',
  'start',
  'pause',
  'resume',
  'complete',
  'fail',
  'cancel',
] as const;

export type LifecycleCommandType = (typeof LIFECYCLE_COMMANDS)[number];

/** Whether a status is final: nothing may follow it. */
export function isFinalStatus(status: SessionStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

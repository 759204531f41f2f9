import { isFinalStatus } from '../../sessions/session-status.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type { Effect } from '../decider/effect.js';
import type { KernelCommand } from '../decider/kernel-input.js';
import { kernelProjection, type KernelState } from '../decider/kernel-state.js';
import { checkRedirect } from '../features/redirect/redirect.js';
import type { SessionRun } from './run-session-types.js';

/** The effect running now (each gets its own abort handle), and what it means for a command. */
export class RunningEffect {
  /** The state the loop last folded (what a redirect is checked against before it aborts). */
  state: KernelState = kernelProjection.initial();
  /** The sub-session a running `run_subagent` drives: a cancel or pause reaches its effect too. */
  child: SessionRun | null = null;
  private controller: AbortController | null = null;
  private type: Effect['type'] | null = null;

  begin(type: Effect['type']): AbortSignal {
    this.controller = new AbortController();
    this.type = type;
    return this.controller.signal;
  }

  end(): void {
    this.controller = null;
    this.type = null;
  }

  /** This process stops: the running effect (and a sub-session's runner) stop, recording nothing new. */
  abort(reason: unknown): void {
    this.controller?.abort(reason);
  }

  /**
   * Aborts what runs now: any effect, or only a retry delay's wait (a pause lets a model call or
   * tool finish). A running sub-session's effect is interrupted the same way; its own loop reads
   * the command forwarded into its log.
   */
  interrupt(reason: Error, scope: 'effect' | 'wait', recording?: Promise<unknown>): void {
    if (this.child !== null) this.child.interrupt(reason.message, scope, recording);
    else if (scope === 'effect' || this.type === 'wait') this.controller?.abort(reason);
  }

  /** Commands of this process still being recorded. */
  private readonly recording = new Set<Promise<unknown>>();

  /** Registers a command being recorded: the loop reads it before it goes on. */
  track(recording: Promise<unknown>): void {
    this.recording.add(recording);
    this.issued += 1;
    const settle = () => void this.recording.delete(recording);
    recording.then(settle, settle);
  }

  /** How many commands were issued here, and how many the last `recorded()` had seen. */
  private issued = 0;
  private seen = 0;

  /**
   * Resolves once every command issued here so far is recorded (or refused): true when any was
   * issued since the last call.
   */
  async recorded(): Promise<boolean> {
    while (this.recording.size > 0) await Promise.allSettled([...this.recording]);
    const any = this.issued !== this.seen;
    this.seen = this.issued;
    return any;
  }

  /**
   * What a command asks of the running effect, at once: a cancel or a legal redirect aborts it,
   * a pause ends a retry delay's wait. Checked against the state the loop last folded.
   */
  answer(config: KernelConfig, command: KernelCommand, recording: Promise<unknown>): void {
    this.track(recording);
    if (isFinalStatus(this.state.session.status)) return;
    const interrupt = (reason: string, scope: 'effect' | 'wait') =>
      this.interrupt(new Error(reason), scope, recording);
    if (command.type === 'cancel') interrupt(`session cancelled by ${command.by}`, 'effect');
    else if (command.type === 'pause') interrupt(`session paused by ${command.by}`, 'wait');
    else if (command.type === 'redirect' && checkRedirect(config, this.state, command.to).ok)
      interrupt(`session redirected to ${command.to} by ${command.by}`, 'effect');
  }
}

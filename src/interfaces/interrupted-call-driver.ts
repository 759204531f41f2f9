/**
 * Whether the driver that started an interrupted call has said it stopped: what a person asked
 * to approve such a call needs first. A call is interrupted when its driver lost the session
 * (or died) between starting it and recording its receipt; if that driver's run still goes on,
 * its command may still be running, and a look at the workspace now says nothing yet.
 */

/** One take of a session's driver lock, as a shared store records it. */
export type DriverTake = {
  readonly driver: string;
  readonly fromSequence: number;
  readonly epoch: number | null;
  /** When it let go in the ordinary way; null: it did not. */
  readonly releasedAt: string | null;
  /** When, having lost the session, its run had stopped; null: not said. */
  readonly stoppedAt: string | null;
};

/**
 * What is known of the driver that started the call: `released` (it let go after its run
 * ended), `stopped` (it lost the session, then said its run had stopped), or `unconfirmed`
 * (it said nothing: its process may still run the command, or died without a word).
 */
export type InterruptedCallDriver = {
  readonly driver: string;
  readonly epoch: number | null;
  readonly state: 'released' | 'stopped' | 'unconfirmed';
  /** When it let go or said it stopped; null when unconfirmed. */
  readonly at: string | null;
};

/**
 * The driver whose take covers `startedSequence` (the sequence of the call's
 * `tool_call_started`): the last take that began before it. Null when no take does (a store
 * that records no drivers, or a call started before the records).
 */
export function interruptedCallDriver(
  takes: readonly DriverTake[],
  startedSequence: number,
): InterruptedCallDriver | null {
  let starter: DriverTake | undefined;
  for (const take of takes) if (take.fromSequence < startedSequence) starter = take;
  if (starter === undefined) return null;
  const { driver, epoch, releasedAt, stoppedAt } = starter;
  if (releasedAt !== null) return { driver, epoch, state: 'released', at: releasedAt };
  if (stoppedAt !== null) return { driver, epoch, state: 'stopped', at: stoppedAt };
  return { driver, epoch, state: 'unconfirmed', at: null };
}

/** The card's line about the driver that started an interrupted call. */
export function describeInterruptedCallDriver(view: InterruptedCallDriver): string {
  switch (view.state) {
    case 'released':
      return `started by ${view.driver}, which let go of the session at ${view.at}: it no longer runs`;
    case 'stopped':
      return `started by ${view.driver}, which lost the session and said at ${view.at} that its run had stopped: it no longer runs`;
    case 'unconfirmed':
      return `started by ${view.driver}, which has not said it stopped: the command may still be running (or its process died); look again before deciding`;
  }
}

/** The driver that started the call with its sentence, as an approval card carries it. */
export function describedStarter(
  takes: readonly DriverTake[],
  startedSequence: number,
): (InterruptedCallDriver & { readonly description: string }) | null {
  const starter = interruptedCallDriver(takes, startedSequence);
  return starter === null
    ? null
    : { ...starter, description: describeInterruptedCallDriver(starter) };
}

import type { SessionListItemDto } from '../../../src/interfaces/protocol/session-dto.js';
import { formatDuration } from '../format.js';

/** What the list says of a session's driver lease: a badge and its hover text, or nothing. */
export type LeaseBadge = {
  readonly text: string;
  readonly title: string;
  readonly stalled: boolean;
};

/**
 * A stalled lease is shown whatever else is true (its driver neither renewed nor appended for
 * longer than the lease: another worker may take the session over); a live one only as hover
 * text on the driver, since a healthy lease is what a person expects.
 */
export function leaseBadge(
  session: Pick<SessionListItemDto, 'driver' | 'leaseAgeMs' | 'stalled'>,
): LeaseBadge | null {
  const age = session.leaseAgeMs;
  if (typeof age !== 'number') return null;
  const driver = typeof session.driver === 'string' ? session.driver : 'its driver';
  if (session.stalled === true)
    return {
      text: 'stalled',
      title: `${driver} last renewed its lease ${formatDuration(age)} ago, past the lease: another worker may take the session over`,
      stalled: true,
    };
  return {
    text: `lease ${formatDuration(age)}`,
    title: `${driver} renewed its lease ${formatDuration(age)} ago`,
    stalled: false,
  };
}

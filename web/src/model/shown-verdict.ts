/**
 * The verdict badge of a call: a call that waits for a person is never shown as ALLOW (an ALLOW
 * verdict at a tier that asks is exactly what waits), it reads ASK until someone decides.
 */
export function shownVerdict(verdict: string, waiting: boolean): string {
  return waiting && verdict === 'ALLOW' ? 'ASK' : verdict;
}

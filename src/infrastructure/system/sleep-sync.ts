/**
 * Blocks this thread for `ms`: for waits inside work that is synchronous by contract (opening a
 * store, a git command under a lock), where yielding to the event loop is not possible.
 */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

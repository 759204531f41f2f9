import type { Timer } from '../../core/kernel/index.js';

/** The runner's Timer on Node's timers: resolves after `ms`, or as soon as `signal` aborts. */
export function createNodeTimer(): Timer {
  return {
    sleep(ms, signal) {
      return new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          clearTimeout(handle);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const handle = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
      });
    },
  };
}

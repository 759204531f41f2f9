/**
 * A bounded fork bomb for `node -e`: tries to start 300 sleeping children (a failed spawn is an
 * `error` event, not the end of the script), then prints how many processes the sandbox's PID
 * namespace holds and how many spawns were refused.
 */
export const FORK_BOMB = `
const { spawn } = require('node:child_process');
let refused = 0;
for (let i = 0; i < 300; i++) spawn('/bin/sleep', ['30']).on('error', () => refused++);
setTimeout(() => {
  const live = require('node:fs').readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name));
  console.log('processes ' + live.length + ' refused ' + refused);
  process.exit(0);
}, 1000);`;

/** The counts FORK_BOMB printed. */
export function forkBombCounts(output: string): { live: number; refused: number } {
  const [, live, refused] = /processes (\d+) refused (\d+)/.exec(output) ?? [];
  return { live: Number(live), refused: Number(refused) };
}

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let bootTimeMs: number | undefined;

/**
 * When process `pid` started, in ms since the epoch (to about a second), or undefined when it
 * cannot be told (no such process, no /proc and no `ps`). A process id is reused once its
 * process is gone: the start time tells a live holder from a stranger that got its number.
 */
export function processStartTime(pid: number): number | undefined {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 22 (starttime, in clock ticks since boot) counts from after the command's `)`.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[19]);
      bootTimeMs ??=
        Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? NaN) * 1000;
      // USER_HZ is 100 on every Linux ABI Node runs on.
      const started = bootTimeMs + ticks * 10;
      return Number.isFinite(started) ? started : undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const text = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    const started = Date.parse(text);
    return Number.isFinite(started) ? started : undefined;
  } catch {
    return undefined;
  }
}

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * The number of physical CPU cores: distinct (package, core) pairs of `/proc/cpuinfo` on Linux,
 * else the logical CPUs Node reports. Hyper-threads share a core's arithmetic units, so a
 * generation gains nothing from them and competes with the event loop.
 */
export function physicalCores(cpuinfo: () => string = readCpuinfo): number {
  const logical = availableParallelism();
  let text: string;
  try {
    text = cpuinfo();
  } catch {
    return logical;
  }
  const cores = new Set<string>();
  for (const block of text.split(/\n\s*\n/)) {
    const physical = /^physical id\s*:\s*(\d+)/m.exec(block)?.[1];
    const core = /^core id\s*:\s*(\d+)/m.exec(block)?.[1];
    if (physical !== undefined && core !== undefined) cores.add(`${physical}:${core}`);
  }
  return cores.size === 0 ? logical : Math.min(cores.size, logical);
}

/** What a local generation uses by default: every physical core but one, at least one. */
export function defaultLocalThreads(cores: number = physicalCores()): number {
  return Math.max(1, cores - 1);
}

function readCpuinfo(): string {
  return readFileSync('/proc/cpuinfo', 'utf8');
}

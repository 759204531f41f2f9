import { readFileSync } from 'node:fs';

/** One measured row: a throughput and its ratio to a baseline measured in the same run. */
export type BenchRow = {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly unit: string;
  readonly baseline: string;
  /** opsPerSecond divided by the baseline's opsPerSecond (1 for a baseline row itself). */
  readonly ratio: number;
  /** CPU milliseconds per operation (this process and its children), where measured. */
  readonly cpuMsPerOp?: number;
  /** cpuMsPerOp of the baseline divided by this row's (so, like ratio, below 1 is slower). */
  readonly cpuRatio?: number;
};

/** Runs `operation` `count` times and returns operations per second. */
export async function measure(
  count: number,
  operation: (index: number) => unknown,
): Promise<number> {
  const start = process.hrtime.bigint();
  for (let index = 0; index < count; index++) await operation(index);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return count / seconds;
}

export function row(
  name: string,
  opsPerSecond: number,
  unit: string,
  baseline?: BenchRow,
  cpuMsPerOp?: number,
): BenchRow {
  return {
    name,
    opsPerSecond,
    unit,
    baseline: baseline?.name ?? '(baseline)',
    ratio: baseline ? opsPerSecond / baseline.opsPerSecond : 1,
    ...(cpuMsPerOp === undefined
      ? {}
      : {
          cpuMsPerOp,
          cpuRatio: baseline?.cpuMsPerOp === undefined ? 1 : baseline.cpuMsPerOp / cpuMsPerOp,
        }),
  };
}

/**
 * CPU time this process and its waited-for children (and theirs) have used, in milliseconds:
 * on a machine others load, wall time moves by tens of percent while CPU time stays put.
 * Children's time comes from /proc/self/stat (Linux; 0 elsewhere), in clock ticks of 10 ms, so
 * it is only meaningful summed over many operations.
 */
export function cpuMillis(): number {
  const own = process.cpuUsage();
  let children: number;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5) (cutime, cstime), counted from the state field (3).
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    children = 0;
  }
  return (own.user + own.system) / 1000 + children;
}

export function printTable(title: string, rows: readonly BenchRow[]): void {
  const width = Math.max(...rows.map((r) => r.name.length), 10);
  const baselineWidth = Math.max(...rows.map((r) => r.baseline.length), 8);
  console.log(`\n${title}`);
  const cpu = rows.some((r) => r.cpuMsPerOp !== undefined);
  const cpuHead = cpu ? `  ${'cpu ms/op'.padStart(9)}  ${'cpu ratio'.padStart(9)}` : '';
  console.log(
    `${'benchmark'.padEnd(width)}  ${'throughput'.padStart(14)}  ${'unit'.padEnd(9)}  ${'ratio'.padStart(6)}${cpuHead}  baseline`,
  );
  for (const r of rows) {
    const throughput = Math.round(r.opsPerSecond).toLocaleString('en-US');
    const cpuCells = !cpu
      ? ''
      : r.cpuMsPerOp === undefined
        ? `  ${''.padStart(9)}  ${''.padStart(9)}`
        : `  ${r.cpuMsPerOp.toFixed(2).padStart(9)}  ${(r.cpuRatio ?? 1).toFixed(2).padStart(9)}`;
    console.log(
      `${r.name.padEnd(width)}  ${throughput.padStart(14)}  ${r.unit.padEnd(9)}  ${r.ratio.toFixed(2).padStart(6)}${cpuCells}  ${r.baseline.padEnd(baselineWidth)}`,
    );
  }
}

/**
 * Measures a baseline and a subject in alternating rounds and reports the median of each, so
 * that a burst of load from elsewhere on the machine hits both sides alike instead of skewing
 * the ratio. `index` counts each side's operations across rounds (0, 1, 2, ...).
 */
export async function compare(options: {
  readonly rounds?: number;
  readonly perRound: number;
  readonly baseline: (index: number) => unknown;
  readonly subject: (index: number) => unknown;
  /** More subjects, timed in the same rounds (interleaved with the others). */
  readonly others?: readonly ((index: number) => unknown)[];
  /** Unmeasured rounds of each first, so both are timed after the JIT has compiled them. */
  readonly warmUpRounds?: number;
}): Promise<{ baseline: number; subject: number; others: number[] }> {
  const rounds = options.rounds ?? 5;
  const runs = [options.baseline, options.subject, ...(options.others ?? [])];
  for (let round = 0; round < (options.warmUpRounds ?? 0); round++) {
    for (const run of runs) await measure(options.perRound, (i) => run(i));
  }
  const timings: number[][] = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const offset = round * options.perRound;
    for (const [index, run] of runs.entries())
      timings[index]!.push(await measure(options.perRound, (i) => run(offset + i)));
  }
  const [baseline, subject, ...others] = timings.map(median);
  return { baseline: baseline!, subject: subject!, others };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

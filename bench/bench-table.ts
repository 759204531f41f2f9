/** One measured row: a throughput and its ratio to a baseline measured in the same run. */
export type BenchRow = {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly unit: string;
  readonly baseline: string;
  /** opsPerSecond divided by the baseline's opsPerSecond (1 for a baseline row itself). */
  readonly ratio: number;
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
): BenchRow {
  return {
    name,
    opsPerSecond,
    unit,
    baseline: baseline?.name ?? '(baseline)',
    ratio: baseline ? opsPerSecond / baseline.opsPerSecond : 1,
  };
}

export function printTable(title: string, rows: readonly BenchRow[]): void {
  const width = Math.max(...rows.map((r) => r.name.length), 10);
  const baselineWidth = Math.max(...rows.map((r) => r.baseline.length), 8);
  console.log(`\n${title}`);
  console.log(
    `${'benchmark'.padEnd(width)}  ${'throughput'.padStart(14)}  ${'unit'.padEnd(9)}  ${'ratio'.padStart(6)}  baseline`,
  );
  for (const r of rows) {
    const throughput = Math.round(r.opsPerSecond).toLocaleString('en-US');
    console.log(
      `${r.name.padEnd(width)}  ${throughput.padStart(14)}  ${r.unit.padEnd(9)}  ${r.ratio.toFixed(2).padStart(6)}  ${r.baseline.padEnd(baselineWidth)}`,
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

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

import { openReadPasses } from './read-passes.js';
import type { CallCostRow } from './call-cost-bench.js';
import { costOf, type Cost } from './cost-of.js';

/*
 * `verify()` of one session against a raw read + `JSON.parse` of the same rows, per event, and
 * the hashing verify cannot skip (the raw read with the SHA-256 chain of the rebuilt hashed
 * bytes) against the same baseline: where verify's ratio stands against its floor. Run by the
 * calls bench in a process of its own (see verifyRowsApart): `node verify-rows.ts PATH ROUNDS
 * quick|full` sends the rows to its parent.
 */

async function verifyRows(path: string, rounds: number, quick: boolean): Promise<CallCostRow[]> {
  const total = quick ? 20_000 : 100_000;
  const read = await openReadPasses(path, total);
  const raw: Cost[] = [];
  const verified: Cost[] = [];
  const hashed: Cost[] = [];
  const per = (cost: Cost): Cost => ({ wallMs: cost.wallMs / total, cpuMs: cost.cpuMs / total });
  try {
    // Round 0 warms all three up and is not counted.
    for (let round = 0; round <= rounds; round++) {
      const baseline = per(await costOf(read.raw));
      const verify = per(await costOf(read.verify));
      const hashing = per(await costOf(read.rawHashed));
      if (round === 0) continue;
      raw.push(baseline);
      verified.push(verify);
      hashed.push(hashing);
    }
  } finally {
    await read.close();
  }
  const events = total.toLocaleString('en-US');
  return [
    {
      name: `verify() of ${events} events (chain + full-schema decode), per event`,
      baseline: 'raw better-sqlite3 read + JSON.parse of the same rows',
      unit: 'µs',
      subject: verified,
      against: raw,
    },
    {
      name: `  its floor: raw read + JSON.parse + the SHA-256 chain, per event`,
      baseline: 'raw better-sqlite3 read + JSON.parse of the same rows',
      unit: 'µs',
      subject: hashed,
      against: raw,
    },
  ];
}

const [path, rounds, quick] = process.argv.slice(2);
process.send!(await verifyRows(path!, Number(rounds), quick === 'quick'));

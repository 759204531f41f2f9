// The CPU a person's short commands cost before they answer (issue #37.14): user+sys seconds of
// `correx --version`, `correx sessions` and `correx show --summary --last`, each run as its own
// process, against `node -e 0` (Node's own start) measured in the same run on the same machine.
//   npx tsx bench/cli-startup-bench.ts [--runs N] [--cli dist/cli/cli.js]
// It runs the bundled CLI (`npm run build` first) on a store it fills with two `correx demo`
// sessions in a temporary CORREX_HOME, or on $CORREX_HOME when `--home` is given.
// A child's CPU comes from bash's `times` (its children's user and system time), so the figure
// is the whole process's, start-up and exit included.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';

const root = resolve(import.meta.dirname, '..');
const option = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const runs = Number(option('--runs') ?? 9);
if (!Number.isInteger(runs) || runs < 1) throw new RangeError('--runs takes a positive integer');
const cli = resolve(root, option('--cli') ?? 'dist/cli/cli.js');
if (!existsSync(cli)) throw new Error(`no bundled CLI at ${cli}: run \`npm run build\` first`);

// Without --home: a scratch folder holding the home and, beside it (correx keeps its home out of
// the agent's reach), the demo's workspaces.
const scratch = process.argv.includes('--home')
  ? undefined
  : mkdtempSync(join(tmpdir(), 'correx-startup-bench-'));
const home = scratch === undefined ? process.env.CORREX_HOME : join(scratch, 'home');
if (home === undefined) throw new Error('--home uses $CORREX_HOME, which is not set');
const env: NodeJS.ProcessEnv = { ...process.env, CORREX_HOME: home, NO_COLOR: '1' };
delete env.CORREX_STORE;

if (scratch !== undefined)
  for (const name of ['one', 'two']) {
    const demo = spawnSync(
      process.execPath,
      [cli, 'demo', '--workspace', join(scratch, `demo-${name}`)],
      { env, encoding: 'utf8' },
    );
    if (demo.status !== 0) throw new Error(`correx demo failed:\n${demo.stdout}${demo.stderr}`);
  }

/** User+sys seconds of one run of `argv`, read from bash's `times` after it exits. */
function cpuSeconds(argv: readonly string[]): number {
  const result = spawnSync(
    'bash',
    ['-c', '"$@" >/dev/null 2>&1; status=$?; times; exit $status', 'bash', ...argv],
    { env, encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  // `times` prints the shell's own user/sys, then its children's: "0m0.412s 0m0.052s".
  const children = result.stdout.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(
    ([, minutes, rest]) => Number(minutes) * 60 + Number(rest),
  );
  if (seconds.length !== 2) throw new Error(`cannot read \`times\` output: ${result.stdout}`);
  return seconds[0]! + seconds[1]!;
}

const cases: readonly { readonly name: string; readonly argv: readonly string[] }[] = [
  { name: 'node -e 0 (baseline)', argv: [process.execPath, '-e', '0'] },
  { name: 'correx --version', argv: [process.execPath, cli, '--version'] },
  { name: 'correx sessions', argv: [process.execPath, cli, 'sessions'] },
  {
    name: 'correx show --summary --last',
    argv: [process.execPath, cli, 'show', '--summary', '--last'],
  },
];

// Interleaved rounds, so a burst of load elsewhere on the machine falls on every case alike.
const samples = cases.map(() => [] as number[]);
for (let round = 0; round < runs; round++)
  cases.forEach((command, index) => samples[index]!.push(cpuSeconds(command.argv)));

const format = (seconds: number) => seconds.toFixed(3).padStart(7);
console.log(`CPU (user+sys, seconds) over ${runs} runs each, ${cli}`);
console.log(`${'command'.padEnd(30)}    min  median     max  over node`);
const baseline = median(samples[0]!);
cases.forEach((command, index) => {
  const sorted = [...samples[index]!].sort((a, b) => a - b);
  const middle = median(sorted);
  console.log(
    `${command.name.padEnd(30)}${format(sorted[0]!)} ${format(middle)} ${format(sorted.at(-1)!)} ${index === 0 ? '' : format(middle - baseline)}`,
  );
});
if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

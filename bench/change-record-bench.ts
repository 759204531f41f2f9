import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_NEVER_WRITABLE } from '../src/core/policies/workspace-policy.js';
import type { SandboxSettings } from '../src/infrastructure/sandbox/confined-process.js';
import { detectSandbox } from '../src/infrastructure/sandbox/sandbox-availability.js';
import { createChangeRecorder } from '../src/infrastructure/sandbox/workspace-changes.js';
import { createExecExecutor } from '../src/infrastructure/tools/exec-tool.js';
import { defaultSearchPath } from '../src/infrastructure/system/default-search-path.js';
import { createDiskWorldProbe } from '../src/infrastructure/world-probe/disk-world-probe.js';
import { compare, row, type BenchRow } from './bench-table.js';
import { layeredRecord } from '../src/core/base/layered-record.js';

/**
 * The price of change records (issue #17): one sandboxed exec that changes one file, with the
 * workspace compared before and after (a warm recorder, as in a session), against the same exec
 * without recording, on a 100-file and a 10,000-file workspace. Alternating rounds, medians.
 * Under bubblewrap where the machine has it, otherwise unconfined (the row names which).
 */
/** A per-exec difference in ms with its sign: on a loaded machine it can come out below zero. */
const signedMs = (ms: number) => `${ms < 0 ? '-' : '+'}${Math.abs(ms).toFixed(1)} ms`;

export async function runChangeRecordBench(options: { quick: boolean }): Promise<BenchRow[]> {
  const availability = await detectSandbox();
  const sandbox: SandboxSettings | undefined =
    availability.kind === 'bubblewrap'
      ? { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] }
      : undefined;
  const rows: BenchRow[] = [];
  for (const files of [100, 10_000]) {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'correx-change-bench-')));
    const workspace = join(base, 'ws');
    const home = join(base, 'home');
    mkdirSync(home, { recursive: true });
    for (let index = 0; index < files; index++) {
      const dir = join(workspace, `d${index % 100}`);
      if (index < 100) mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `f${index}.txt`), `file ${index}\n`.repeat(8));
    }
    const executor = (changes: ReturnType<typeof createChangeRecorder> | false) =>
      createExecExecutor({
        probe: createDiskWorldProbe(),
        searchPath: defaultSearchPath(),
        changes,
        ...(sandbox === undefined ? {} : { sandbox }),
      });
    const plain = executor(false);
    const recorder = createChangeRecorder();
    const recording = executor(recorder);
    const call = (tool: ReturnType<typeof executor>) => (index: number) =>
      tool.execute(
        { argv: ['sh', '-c', `echo ${index} > d0/changed.txt`] },
        {
          callId: `bench-${index}`,
          roots: { workspaceRoot: workspace, homeDirectory: home },
          observations: layeredRecord(),
          egressAllowlist: [],
        },
      );
    await call(recording)(-1); // warm: the first command on a workspace hashes it all
    const perRound = options.quick ? 3 : 10;
    const result = await compare({
      rounds: options.quick ? 3 : 5,
      perRound,
      baseline: call(plain),
      subject: call(recording),
    });
    const where = sandbox === undefined ? 'unconfined' : 'bubblewrap';
    const baseline = row(`exec, ${files} files, ${where}, no record`, result.baseline, 'runs/s');
    const subject = row(
      `exec, ${files} files, ${where}, change record (${signedMs(1000 / result.subject - 1000 / result.baseline)})`,
      result.subject,
      'runs/s',
      baseline,
    );
    rows.push(baseline, subject);
    recorder.close();
    rmSync(base, { recursive: true, force: true });
  }
  return rows;
}

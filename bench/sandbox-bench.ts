import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  runConfinedProcess,
  type SandboxSettings,
} from '../src/infrastructure/sandbox/confined-process.js';
import { detectSandbox } from '../src/infrastructure/sandbox/sandbox-availability.js';
import { scrubbedEnvironment } from '../src/infrastructure/tools/exec-tool.js';
import { defaultSearchPath } from '../src/infrastructure/system/default-search-path.js';
import { measure, row, type BenchRow } from './bench-table.js';

/**
 * The price of confinement: `true` run plainly, under bubblewrap with no network, and under
 * bubblewrap with an egress allowlist (which starts the filtering proxy and its in-sandbox
 * forwarder for the call). Empty where this machine has no bubblewrap.
 */
export async function runSandboxBench(options: { quick: boolean }): Promise<BenchRow[]> {
  const availability = await detectSandbox();
  if (availability.kind === 'none') return [];
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'correx-sandbox-bench-')));
  const home = realpathSync(homedir());
  const searchPath = defaultSearchPath();
  const settings: SandboxSettings = { availability };
  const runTrue = (sandbox: SandboxSettings | undefined, egressAllowlist: string[]) => () =>
    runConfinedProcess(
      {
        argv: ['true'],
        cwd: workspace,
        workspaceRoot: workspace,
        homeDirectory: home,
        env: scrubbedEnvironment(home, searchPath),
        searchPath,
        egressAllowlist,
        timeoutMs: 30_000,
        onOutput: () => {},
      },
      sandbox,
    );
  const count = options.quick ? 5 : 30;
  try {
    const plain = row(
      'exec `true`, no sandbox',
      await measure(count, runTrue(undefined, [])),
      'runs/s',
    );
    return [
      plain,
      row(
        'exec `true` in bubblewrap, no network',
        await measure(count, runTrue(settings, [])),
        'runs/s',
        plain,
      ),
      row(
        'exec `true` in bubblewrap, egress proxy',
        await measure(count, runTrue(settings, ['example.com'])),
        'runs/s',
        plain,
      ),
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

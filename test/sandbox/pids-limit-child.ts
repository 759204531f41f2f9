/**
 * Runs one fork bomb through the exec executor under bubblewrap and prints its receipt as JSON.
 * pids-limit.test.ts starts it as an unprivileged user (no cgroup is writable there), so the
 * limit falls back to RLIMIT_NPROC inside the user namespace: `tsx pids-limit-child.ts <ws> <home>`.
 */
import { detectSandbox } from '../../src/infrastructure/sandbox/sandbox-availability.js';
import { createExecExecutor } from '../../src/infrastructure/tools/exec-tool.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { FORK_BOMB } from './fork-bomb.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';

const [workspace, home] = process.argv.slice(2);
const executor = createExecExecutor({
  probe: createDiskWorldProbe(),
  searchPath: '/usr/local/bin:/usr/bin:/bin',
  sandbox: { availability: await detectSandbox(), neverWritable: [], maxProcesses: 40 },
});
const receipt = await executor.execute(
  { argv: [process.execPath, '-e', FORK_BOMB], timeoutMs: 60_000 },
  {
    callId: 'call-1',
    roots: { workspaceRoot: workspace!, homeDirectory: home! },
    observations: layeredRecord(),
    egressAllowlist: [],
  },
);
process.stdout.write(JSON.stringify(receipt));

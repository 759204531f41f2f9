import { printTable } from './bench-table.js';
import { runContextBench } from './context-bench.js';
import { runEventStoreBench } from './event-store-bench.js';
import { runKernelBench } from './kernel-bench.js';
import { runLspBench } from './lsp-bench.js';
import { runPostgresBench } from './postgres-bench.js';
import { runSandboxBench } from './sandbox-bench.js';
import { runServerFanoutBench } from './server-fanout.js';

/**
 * `npm run bench`: every row is a throughput with its ratio to a baseline measured in the same
 * run on the same machine, so numbers from different machines stay comparable. `--quick` runs
 * a tenth of the work.
 */
const quick = process.argv.includes('--quick');
printTable('Event store (SQLite)', await runEventStoreBench({ quick }));
const postgres = await runPostgresBench({ quick });
if (postgres.length > 0) printTable('Event store (PostgreSQL)', postgres);
printTable('Context packs', await runContextBench({ quick }));
printTable('Kernel (in-memory store)', await runKernelBench({ quick }));
printTable('Server fan-out (WebSocket, in-memory store)', await runServerFanoutBench({ quick }));
const sandbox = await runSandboxBench({ quick });
if (sandbox.length > 0) printTable('Sandbox (bubblewrap)', sandbox);
printTable('Language server (typescript-language-server)', await runLspBench({ quick }));

import { printTable } from './bench-table.js';
import { printCallCostTable, runCallCostBench } from './call-cost-bench.js';
import { runChangeRecordBench } from './change-record-bench.js';
import { runContextBench } from './context-bench.js';
import { runEventStoreBench } from './event-store-bench.js';
import { runKernelBench } from './kernel-bench.js';
import { runLangGraphBench } from './langgraph-bench.js';
import { runLocalModelBench } from './local-model-bench.js';
import { runLspBench } from './lsp-bench.js';
import { runPostgresBench } from './postgres-bench.js';
import { runReplayScaleBench } from './replay-scale-bench.js';
import { runSandboxBench } from './sandbox-bench.js';
import { runServerFanoutBench } from './server-fanout.js';
import { runWorkersBench } from './workers-bench.js';

/**
 * `npm run bench`: every row is a throughput with its ratio to a baseline measured in the same
 * run on the same machine, so numbers from different machines stay comparable. `--quick` runs
 * a tenth of the work; `--only <section>` runs one section.
 */
const quick = process.argv.includes('--quick');
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
/**
 * `--only kernel` (or store, postgres, context, langgraph, calls, replay, server, sandbox, changes, local,
 * lsp, workers) runs one section; `--huge` adds the 1M-event session to `replay`.
 */
const wanted = (section: string) => only === undefined || only === section;

if (wanted('store')) printTable('Event store (SQLite)', await runEventStoreBench({ quick }));
if (wanted('postgres')) {
  const postgres = await runPostgresBench({ quick });
  if (postgres.length > 0) printTable('Event store (PostgreSQL)', postgres);
}
if (wanted('context')) printTable('Context packs', await runContextBench({ quick }));
if (wanted('kernel')) printTable('Kernel (in-memory store)', await runKernelBench({ quick }));
if (wanted('langgraph')) {
  const langgraph = await runLangGraphBench({ quick });
  if (langgraph.length > 0)
    printTable('Kernel against LangGraph.js (SQLite checkpoints, per tool call)', langgraph);
}
if (wanted('calls')) printCallCostTable(await runCallCostBench({ quick }));
if (wanted('local')) {
  const local = await runLocalModelBench({ quick });
  if (local.length > 0) printTable('Local model (node-llama-cpp, tiny GGUF)', local);
}
if (wanted('server'))
  printTable('Server fan-out (WebSocket, in-memory store)', await runServerFanoutBench({ quick }));
if (wanted('sandbox')) {
  const sandbox = await runSandboxBench({ quick });
  if (sandbox.length > 0) printTable('Sandbox (bubblewrap)', sandbox);
}
if (wanted('changes')) printTable('Exec change records', await runChangeRecordBench({ quick }));
if (wanted('lsp'))
  printTable('Language server (typescript-language-server)', await runLspBench({ quick }));
if (wanted('workers')) {
  const workers = await runWorkersBench({ quick });
  if (workers !== null) {
    printTable('Workers (PostgreSQL, scripted model, no tools)', workers.rows);
    for (const { workers: count, medianMs, p99Ms } of workers.latency)
      console.log(
        `  runnable -> started, ${count} worker(s): median ${medianMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms`,
      );
    if (workers.takeover !== null)
      console.log(
        `  SIGSTOP of a driving worker -> its session taken by another (lease ${workers.takeover.leaseMs} ms): ${workers.takeover.ms.toFixed(0)} ms`,
      );
    if (workers.fence !== null)
      console.log(
        `  one append with the driver fence: ${workers.fence.fencedUs.toFixed(0)} µs, without: ${workers.fence.plainUs.toFixed(0)} µs`,
      );
  }
}
if (wanted('replay')) {
  const replay = await runReplayScaleBench({ quick, huge: process.argv.includes('--huge') });
  printTable('Replay at scale (SQLite, bin/correx replay --verify)', replay.rows);
  for (const note of replay.notes) console.log(`  ${note}`);
}

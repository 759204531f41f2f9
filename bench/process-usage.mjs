// Preloaded (`node --import`) into a process a bench measures: at exit it writes the process's
// peak RSS, peak V8 heap (sampled) and CPU time as JSON to the file CORREX_BENCH_USAGE names.
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { getHeapStatistics } from 'node:v8';

const target = process.env.CORREX_BENCH_USAGE;
if (target) {
  let peakHeap = 0;
  const sample = () => {
    peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
  };
  setInterval(sample, 20).unref();
  process.on('exit', () => {
    sample();
    const cpu = process.cpuUsage();
    writeFileSync(
      target,
      JSON.stringify({
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        peakHeapBytes: peakHeap,
        cpuMicros: cpu.user + cpu.system,
      }),
    );
  });
}

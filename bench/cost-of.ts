/** Wall and CPU time of one piece of work, in milliseconds. */
export type Cost = { readonly wallMs: number; readonly cpuMs: number };

/** Times `work`: wall time, and the CPU time this process used meanwhile (every thread). */
export async function costOf(work: () => Promise<unknown> | unknown): Promise<Cost> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await work();
  const used = process.cpuUsage(cpu);
  return {
    wallMs: Number(process.hrtime.bigint() - start) / 1e6,
    cpuMs: (used.user + used.system) / 1000,
  };
}

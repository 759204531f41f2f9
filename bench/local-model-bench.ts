import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LlamaCppProvider } from '../src/infrastructure/providers/llama-cpp-provider.js';
import { writeTinyGguf } from '../test/support/tiny-gguf.js';
import { row, type BenchRow } from './bench-table.js';

/**
 * In-process generation through node-llama-cpp on a tiny random-weight GGUF written here (no
 * download): tokens per second at 1 and 2 threads, unconstrained, through the provider correx
 * uses. Skipped when node-llama-cpp or its prebuilt binary is missing.
 */
export async function runLocalModelBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const available = await import('node-llama-cpp').then(
    () => true,
    () => false,
  );
  if (!available) return [];
  const dir = mkdtempSync(join(tmpdir(), 'correx-bench-gguf-'));
  const modelPath = join(dir, 'tiny.gguf');
  writeTinyGguf(modelPath);
  const maxOutputTokens = options.quick ? 64 : 256;
  const rows: BenchRow[] = [];
  try {
    for (const threads of [1, 2]) {
      const provider = await LlamaCppProvider.load({
        modelPath,
        gpu: false,
        threads,
        contextSize: 2048,
      });
      try {
        const request = {
          model: 'tiny',
          messages: [{ role: 'user' as const, content: 'Write anything.' }],
          tools: [],
          limits: { maxOutputTokens, timeoutMs: 120_000 },
        };
        await provider.infer(request); // warm-up
        const start = process.hrtime.bigint();
        const result = await provider.infer({
          ...request,
          messages: [{ role: 'user', content: 'Again.' }],
        });
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        rows.push(
          row(
            `local generation, ${threads} thread${threads === 1 ? '' : 's'} (${result.usage.outputTokens} tokens)`,
            result.usage.outputTokens / seconds,
            'tokens/s',
            rows[0],
          ),
        );
      } finally {
        await provider.dispose();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

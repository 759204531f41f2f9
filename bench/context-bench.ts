import { buildContextPack } from '../src/core/context/build-context-pack.js';
import type { ContextCandidate } from '../src/core/context/context-candidate.js';
import { estimateTokens } from '../src/core/context/tokenizer.js';
import { createEstimatingTokenizer } from '../src/core/context/tokenizer.js';
import { nodeSha256 } from '../src/infrastructure/system/node-sha256.js';
import { measure, row, type BenchRow } from './bench-table.js';

const LINE = 'src/parser/dates.ts:42:7 error TS2345: Argument of type string is not assignable.\n';

/** 10,000 candidates shaped like a long session: turns, tool outputs (some huge), summaries, repo excerpts. */
export function benchCandidates(count = 10_000): ContextCandidate[] {
  const candidates: ContextCandidate[] = [
    {
      id: 'task',
      layer: 'L1',
      kind: 'task',
      source: { kind: 'event', id: 'e0' },
      content: 'Fix the failing date parser tests and keep the public API unchanged.',
      order: 0,
    },
    {
      id: 'steering',
      layer: 'L0',
      kind: 'steering',
      source: { kind: 'event', id: 'e1' },
      content: 'Steering note from the operator:\nPrefer date-fns; do not add moment.',
      order: 1,
    },
  ];
  for (let i = 0; i < count - 2; i++) {
    const slot = i % 10;
    const base = { id: `c${i}`, source: { kind: 'event' as const, id: `e${i + 2}` }, order: i + 2 };
    if (slot < 5) {
      candidates.push({
        ...base,
        layer: 'L1',
        kind: 'turn',
        content: `turn ${i}: ${'I will read the parser and check the failing case. '.repeat(3)}`,
      });
    } else if (slot < 8) {
      const lines = i % 50 === 5 ? 400 : 6; // one in fifty tool outputs is a 30 KB log
      candidates.push({
        ...base,
        layer: 'L1',
        kind: 'tool_result',
        content: `exit 1 (${i})\n${LINE.repeat(lines)}`,
      });
    } else if (slot === 8) {
      candidates.push({
        ...base,
        layer: 'L2',
        kind: 'summary',
        content: `stage summary ${i % 40}: parser rewritten, 3 tests still failing`,
      });
    } else {
      candidates.push({
        ...base,
        layer: 'L3',
        kind: 'knowledge',
        relevance: (i % 7) / 7,
        content: `// src/module-${i % 300}.ts\nexport function f${i}(input: string): number {\n  return input.length * ${i};\n}\n`,
      });
    }
  }
  return candidates;
}

/**
 * Context benchmarks: building a pack from 10,000 candidates into an 8,000-token budget (against
 * a baseline of only counting the tokens of every candidate once, the least any builder must do),
 * and tokenizer throughput (against UTF-8 encoding the same text).
 */
export async function runContextBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const rounds = options.quick ? 3 : 20;
  const candidates = benchCandidates();
  const tokenizer = createEstimatingTokenizer();
  const input = { stageId: 'implement', candidates };
  const budget = { maxTokens: 8_000 };
  buildContextPack(input, budget, tokenizer, { hash: nodeSha256 });

  const countOnly = row(
    'count tokens of 10k candidates',
    await measure(rounds, () => candidates.reduce((sum, c) => sum + tokenizer.count(c.content), 0)),
    'passes/s',
  );
  const build = row(
    'build pack: 10k candidates -> 8k tokens',
    await measure(rounds, () => buildContextPack(input, budget, tokenizer, { hash: nodeSha256 })),
    'builds/s',
    countOnly,
  );

  const text = candidates.map((c) => c.content).join('\n');
  const megabytes = Buffer.byteLength(text) / 1e6;
  const encoder = new TextEncoder();
  const encode = row(
    'utf-8 encode',
    (await measure(rounds, () => encoder.encode(text))) * megabytes,
    'MB/s',
  );
  const estimate = row(
    'estimate-v1 tokenizer',
    (await measure(rounds, () => estimateTokens(text))) * megabytes,
    'MB/s',
    encode,
  );
  return [countOnly, build, encode, estimate];
}

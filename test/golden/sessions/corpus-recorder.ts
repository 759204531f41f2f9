import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CorrexEventStore } from '../../../src/core/event-catalog.js';

/*
 * Writes every session of a store as NDJSON of stored envelopes (with their hashes), when
 * CORREX_GOLDEN_RECORD names a folder. Scenario stores call it before they close, so running a
 * suite with the variable set records what the code of that moment does. The frozen corpus is
 * chosen from such a recording once and never rewritten: this never overwrites a file.
 */
export async function recordSessionsForCorpus(
  store: CorrexEventStore,
  label: string,
): Promise<void> {
  const folder = process.env.CORREX_GOLDEN_RECORD;
  if (folder === undefined || folder === '') return;
  mkdirSync(folder, { recursive: true });
  for (const summary of await store.listSessions()) {
    const file = join(folder, `${label}--${summary.sessionId}.ndjson`.replace(/[^\w.-]+/g, '_'));
    if (existsSync(file)) continue;
    const lines: string[] = [];
    try {
      for await (const event of store.stream(summary.sessionId)) lines.push(JSON.stringify(event));
    } catch {
      continue; // a session a test tampered with on purpose is no corpus material
    }
    writeFileSync(file, `${lines.join('\n')}\n`, { flag: 'wx' });
  }
}

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaySession } from '../../../src/core/kernel/index.js';
import { nodeSha256 } from '../../../src/infrastructure/system/node-sha256.js';
import {
  CORPUS_DIR,
  corpusFiles,
  loadCorpusStore,
  readCorpusManifest,
} from './session-corpus.js';

/*
 * The frozen session corpus: sessions recorded by earlier releases, replayed by every later one
 * with the configuration (and behaviour flags) they recorded. A behaviour change that is not
 * behind a recorded flag re-derives other events for one of these, and this fails.
 */
const manifest = readCorpusManifest();

describe('the frozen session corpus', () => {
  it('holds exactly the files its manifest lists, each unchanged since it was written', () => {
    expect(corpusFiles()).toEqual(manifest.sessions.map((entry) => entry.file).sort());
    for (const entry of manifest.sessions) {
      const digest = createHash('sha256')
        .update(readFileSync(join(CORPUS_DIR, entry.file)))
        .digest('hex');
      expect(digest, `${entry.file} was rewritten`).toBe(entry.sha256);
    }
  });

  for (const entry of manifest.sessions) {
    it(`replays ${entry.file} (${entry.recordedBy}): ${entry.scenario}`, async () => {
      const store = await loadCorpusStore([entry.file]);
      const report = await replaySession(store, entry.sessionId, undefined, {
        sha256: nodeSha256,
      });
      if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
      expect(report.events).toBe(entry.events);
      expect(report.decided).toBeGreaterThan(0);
      await store.close();
    });
  }
});

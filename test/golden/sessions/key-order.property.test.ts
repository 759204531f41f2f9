import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECISIONS_FROM_CANONICAL_OUTPUT } from '../../../src/core/kernel/config/kernel-flags.js';
import { replaySession } from '../../../src/core/kernel/index.js';
import { nodeSha256 } from '../../../src/infrastructure/system/node-sha256.js';
import { permutedSession, storeOf } from '../../support/permute-model-keys.js';
import { readCorpusEvents, readCorpusManifest } from './session-corpus.js';

/*
 * Issue 33.1 as a property over the frozen corpus: permute the keys of every JSON object a model
 * supplied, and replay. A decision that read the model's key order would re-derive other events.
 *
 * What a model supplied: the parsed arguments of each call (`args`, in every session), and, in
 * sessions recorded with `decisions-from-canonical-output`, also its texts themselves (a call's
 * `argsRaw`, an answer's `text`) when they are JSON, rewritten in the permuted order wherever the
 * log carries them (the `tool_call_proposed` that echoes a call). A session recorded before that
 * flag renders the model's text verbatim by design, so its texts are left as written.
 */
const sessions = readCorpusManifest().sessions;

describe('the frozen corpus with the keys of the model JSON permuted', () => {
  it('holds a session recorded with decisions-from-canonical-output, whose texts are permuted too', () => {
    const flagged = sessions.filter((entry) =>
      (
        readCorpusEvents(entry.file)[0]?.payload as { configuration?: { flags?: string[] } }
      ).configuration?.flags?.includes(DECISIONS_FROM_CANONICAL_OUTPUT.name),
    );
    expect(flagged.map((entry) => entry.file)).toContain('model-key-order.ndjson');
  });

  for (const entry of sessions) {
    it(`replays ${entry.file} whatever the order of the model's keys`, async () => {
      const events = readCorpusEvents(entry.file);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (seed) => {
          const store = await storeOf(permutedSession(events, seed));
          const report = await replaySession(store, entry.sessionId, undefined, {
            sha256: nodeSha256,
          });
          await store.close();
          if (!report.ok)
            throw new Error(`seed ${seed}: ${JSON.stringify(report.divergence, null, 2)}`);
          expect(report.events).toBe(entry.events);
        }),
        { numRuns: entry.file === 'model-key-order.ndjson' ? 40 : 4 },
      );
    });
  }
});

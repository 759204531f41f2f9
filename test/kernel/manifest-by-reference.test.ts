import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/events/canonical-json.js';
import { currentBehaviour } from '../../src/core/kernel/config/behaviour.js';
import { MANIFEST_BY_REFERENCE } from '../../src/core/kernel/config/kernel-flags.js';
import { runSession, recordedKernelConfig, replaySession } from '../../src/core/kernel/index.js';
import { sessionManifestReader } from '../../src/core/inference/manifest-history.js';
import { findModelCall, modelCallContexts } from '../../src/core/inference/model-call-contexts.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import {
  closeStoresAfterEach,
  eventsOf,
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/**
 * Issue #38: a session recorded with `manifest-by-reference` says exactly what each model call
 * saw, as the whole form does. The same scripted session (reads only, some repeated, so packs
 * grow, drop duplicates and re-point them) is recorded with and without the flag in one
 * workspace; both replay, and the manifests rebuilt from the references are the whole ones.
 */
async function record(
  sessionId: string,
  flags: ReadonlySet<string>,
  workspace: string,
  storePath: string,
) {
  const store = openStore(storePath);
  stores.push(store);
  const behaviour = { kernelVersion: currentBehaviour().kernelVersion, flags };
  const config = scenarioConfig({ workflow: implementOnlyWorkflow(), behaviour });
  const read = (path: string) => ({ toolCalls: [{ name: 'read_file', args: { path } }] });
  const model = scriptedModel([
    read('a.txt'),
    read('b.txt'),
    read('a.txt'),
    {
      toolCalls: [
        { name: 'read_file', args: { path: 'a.txt' } },
        { name: 'list_dir', args: { path: '.' } },
      ],
    },
    read('b.txt'),
    read('a.txt'),
    { text: JSON.stringify({ summary: 'read the files', filesChanged: [] }) },
  ]);
  const outcome = await runSession(
    { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
    {
      type: 'start',
      task: 'Read a.txt and b.txt',
      workspace,
      workflowId: 'implement-only',
      mode: 'auto',
    },
  );
  expect(outcome.status).toBe('completed');
  const report = await replaySession(
    store,
    sessionId,
    await recordedKernelConfig(store, sessionId, nodeSha256),
  );
  if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
  return eventsOf(store, sessionId);
}

describe('context manifests recorded by reference', () => {
  it('replay, and rebuild to exactly the manifests a session without the flag records', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const all = currentBehaviour().flags;
    const without = new Set([...all].filter((flag) => flag !== MANIFEST_BY_REFERENCE.name));
    const whole = await record('s-manifest', without, workspace, storePath);
    const byReference = await record('s-manifest', all, workspace, `${storePath}.flagged`);

    const requested = (events: typeof whole) =>
      events.flatMap((event) =>
        event.payload.type === 'inference_requested' ? [event.payload] : [],
      );
    const wholeManifests = requested(whole).map((payload) => {
      expect(payload.manifestRef).toBeUndefined();
      return canonicalJson(payload.manifest);
    });
    const read = sessionManifestReader();
    const rebuilt = requested(byReference).map((payload) => {
      expect(payload.manifest).toBeUndefined();
      return canonicalJson(read(payload));
    });
    expect(rebuilt.length).toBeGreaterThanOrEqual(6);
    expect(rebuilt).toEqual(wholeManifests);
    // The flagged session stores less: each later manifest names only what changed.
    const bytes = (events: typeof whole) =>
      requested(events).reduce((sum, payload) => sum + canonicalJson(payload).length, 0);
    expect(bytes(byReference)).toBeLessThan(bytes(whole));

    // What `show --context` and the REST context routes read: the same calls either way.
    const contexts = modelCallContexts(byReference);
    const wholeContexts = modelCallContexts(whole);
    expect(contexts.map((call) => call.recordedAs)).toEqual(contexts.map(() => 'reference'));
    expect(wholeContexts.map((call) => call.recordedAs)).toEqual(contexts.map(() => 'whole'));
    expect(contexts.map((call) => canonicalJson(call.manifest))).toEqual(wholeManifests);
    expect(contexts.map((call) => call.change)).toEqual(wholeContexts.map((call) => call.change));
    expect(contexts[0]!.change).toBeNull();
    // Each later call of the stage sees the previous call's answer and results come in.
    for (const call of contexts.slice(1)) expect(call.change!.added.length).toBeGreaterThan(0);
    const added = new Set(contexts.slice(1).flatMap((call) => call.change!.added));
    for (const call of contexts.slice(1))
      for (const id of call.change!.added)
        expect(call.manifest.included.map((entry) => entry.id)).toContain(id);
    expect(added.size).toBeGreaterThan(0);
    expect(contexts.every((call) => call.reportedInputTokens !== null)).toBe(true);
    expect(findModelCall(contexts, 'last')).toBe(contexts.at(-1));
    expect(findModelCall(contexts, '2')).toBe(contexts[1]);
    expect(findModelCall(contexts, contexts[2]!.requestId)).toBe(contexts[2]);
    expect(findModelCall(contexts, '0')).toBeUndefined();
    expect(findModelCall(contexts, 'nope')).toBeUndefined();
  });
});

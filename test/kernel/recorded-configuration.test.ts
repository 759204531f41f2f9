import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/events/canonical-json.js';
import {
  ConfigurationNotRecordedError,
  replaySession,
} from '../../src/core/kernel/runner/replay-session.js';
import {
  runSession,
  SessionConfigurationMismatchError,
} from '../../src/core/kernel/runner/run-session.js';
import {
  describeKernelConfig,
  InvalidSessionConfigurationError,
  kernelConfigFromConfiguration,
} from '../../src/core/kernel/config/session-configuration.js';
import { expectRejection } from '../support/expect-rejection.js';
import {
  closeStoresAfterEach,
  eventsOf,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioWorkspace,
} from './kernel-harness.js';
import { implementOnlyWorkflow, scenarioConfig, scriptedModel } from './scenario-config.js';

import { createKernelConfig, toolFromRecord } from '../../src/core/kernel/index.js';
import { parseWorkspacePolicy } from '../../src/core/policies/workspace-policy.js';
import { createAssessmentPolicy } from '../../src/core/toolintent/default-rules.js';
import { builtinTools } from '../../src/core/tools/builtin-tools.js';
import { toolArgsJsonSchema } from '../../src/core/tools/tool-contract.js';
import { createDefaultValidatorRegistry } from '../../src/core/validation/default-validators.js';
import {
  behaviourFlags,
  KERNEL_VERSION,
  UNVERSIONED_BEHAVIOUR,
} from '../../src/core/kernel/config/behaviour.js';

const stores = closeStoresAfterEach();

async function recordedSession(config = scenarioConfig()) {
  const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
  const store = openStore(storePath);
  stores.push(store);
  const fail = { fail: { category: 'provider_down' as const, message: 'connection refused' } };
  const outcome = await runSession(
    {
      store,
      sessionId: 's-config',
      config,
      ports: livePorts(scriptedModel([fail, fail, fail])),
      clock: newClock(),
      ids: newIds(),
    },
    { type: 'start', task: 'anything', workspace, workflowId: config.workflow.id, mode: 'auto' },
  );
  return { store, outcome, workspace };
}

describe('the configuration a session records at its start', () => {
  it('describes a kernel config as data that rebuilds the same config', () => {
    const config = scenarioConfig({ limits: { maxTurnsPerStage: 5 } });
    const described = describeKernelConfig(config);
    const rebuilt = kernelConfigFromConfiguration(JSON.parse(JSON.stringify(described)));
    expect(canonicalJson(describeKernelConfig(rebuilt))).toBe(canonicalJson(described));
    expect(rebuilt.limits.maxTurnsPerStage).toBe(5);
    expect([...rebuilt.tools.keys()]).toEqual([...config.tools.keys()]);
    expect(rebuilt.workflow.definition).toEqual(config.workflow.definition);
  });

  it('records a tool that is not built in by its description, and rebuilds it to check arguments', () => {
    const lookup = toolFromRecord({
      name: 'lookup_issue',
      description: 'Look an issue up by number.',
      inputSchema: {
        type: 'object',
        properties: { number: { type: 'integer', minimum: 1 } },
        required: ['number'],
        additionalProperties: false,
      },
      paramRoles: {},
      capabilities: ['READ_ONLY'],
      defaultTier: 'T0',
      source: { kind: 'mcp', id: 'tracker', digest: 'a'.repeat(64) },
    });
    const config = createKernelConfig({
      workflow: implementOnlyWorkflow(),
      tools: [...builtinTools, lookup],
      policy: createAssessmentPolicy(parseWorkspacePolicy({})),
      router: scenarioConfig().router,
      validators: createDefaultValidatorRegistry(),
      homeDirectory: '/home/u',
    });
    const described = JSON.parse(JSON.stringify(describeKernelConfig(config))) as unknown;
    const rebuilt = kernelConfigFromConfiguration(described);
    expect(canonicalJson(describeKernelConfig(rebuilt))).toBe(canonicalJson(described));
    const tool = rebuilt.tools.get('lookup_issue')!;
    expect(tool.source).toEqual({ kind: 'mcp', id: 'tracker', digest: 'a'.repeat(64) });
    expect(tool.argsSchema.safeParse({ number: 3 }).success).toBe(true);
    expect(tool.argsSchema.safeParse({ number: 0 }).success).toBe(false);
    expect(tool.argsSchema.safeParse({ number: 3, extra: true }).success).toBe(false);
    expect(toolArgsJsonSchema(tool)).toEqual(lookup.inputJsonSchema);
  });

  it('refuses to record a tool that is neither built in nor from a recorded source', () => {
    const base = scenarioConfig();
    const stray = { ...builtinTools[0]!, name: 'stray' };
    expect(() =>
      describeKernelConfig({ ...base, tools: new Map([...base.tools, ['stray', stray]]) }),
    ).toThrow(/neither built in nor from a recorded source/);
  });

  it('records the decider version and every behaviour flag of this release', () => {
    const described = describeKernelConfig(scenarioConfig());
    expect(described.kernelVersion).toBe(KERNEL_VERSION);
    expect(described.flags).toEqual(behaviourFlags.map((flag) => flag.name).sort());
  });

  it('rebuilds an unversioned configuration without flags, and keeps its digest', () => {
    const unversioned = scenarioConfig({ behaviour: UNVERSIONED_BEHAVIOUR });
    const described = describeKernelConfig(unversioned);
    expect(described).not.toHaveProperty('kernelVersion');
    expect(described).not.toHaveProperty('flags');
    const rebuilt = kernelConfigFromConfiguration(JSON.parse(JSON.stringify(described)));
    expect(rebuilt.behaviour.kernelVersion).toBe(1);
    expect([...rebuilt.behaviour.flags]).toEqual([]);
    expect([...rebuilt.policy.flags]).toEqual([]);
  });

  it('refuses a configuration recorded by a newer correx, naming what it does not know', () => {
    const described = describeKernelConfig(scenarioConfig());
    expect(() =>
      kernelConfigFromConfiguration({ ...described, flags: ['from-the-future'] }),
    ).toThrow(/does not know \(from-the-future\): use a newer correx/);
    expect(() =>
      kernelConfigFromConfiguration({ ...described, kernelVersion: KERNEL_VERSION + 1 }),
    ).toThrow(/use a newer correx/);
  });

  it('is the first event of a new session, and replay rebuilds the kernel from it alone', async () => {
    const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
    const { store } = await recordedSession(config);
    const events = await eventsOf(store, 's-config');
    expect(events[0]?.payload.type).toBe('session_configured');
    expect(events[1]?.payload.type).toBe('session_created');
    // No config handed in: the recorded one is used, and it re-derives every event.
    const report = await replaySession(store, 's-config');
    expect(report).toMatchObject({ ok: true, events: events.length });
  });

  it('refuses to drive a session with a config other than the recorded one', async () => {
    const { store } = await recordedSession();
    const other = scenarioConfig({ limits: { inferenceTimeoutMs: 5_000 } });
    await expectRejection(
      runSession({
        store,
        sessionId: 's-config',
        config: other,
        ports: livePorts(scriptedModel([])),
        clock: newClock(),
        ids: newIds('again'),
      }),
      SessionConfigurationMismatchError,
    );
  });

  it('names a session without a recorded configuration and a recorded one that does not parse', async () => {
    const { store } = await recordedSession();
    await expectRejection(replaySession(store, 'no-such-session'), ConfigurationNotRecordedError);
    expect(() => kernelConfigFromConfiguration({ tools: ['read_file'] })).toThrow(
      InvalidSessionConfigurationError,
    );
    const described = describeKernelConfig(scenarioConfig());
    expect(() =>
      kernelConfigFromConfiguration({ ...described, tools: ['launch_missiles'] }),
    ).toThrow(/launch_missiles is not a built-in tool/);
    expect(() =>
      kernelConfigFromConfiguration({ ...described, workflow: { id: 'x', stages: [] } }),
    ).toThrow(InvalidSessionConfigurationError);
  });
});

describe('replay from a cursor', () => {
  it('trusts the log up to the cursor and re-decides what follows', async () => {
    const { store } = await recordedSession();
    const events = await eventsOf(store, 's-config');
    for (const from of [1, 5, Math.floor(events.length / 2), events.length - 1]) {
      const report = await replaySession(store, 's-config', undefined, { fromSequence: from });
      expect(report.ok, `from #${from}`).toBe(true);
    }
  });

  it('still finds a divergence after the cursor, and ignores one before it', async () => {
    const { store } = await recordedSession();
    const other = scenarioConfig({ limits: { inferenceTimeoutMs: 5_000 } });
    const whole = await replaySession(store, 's-config', other);
    expect(whole.ok).toBe(false);
    if (whole.ok) return;
    const events = await eventsOf(store, 's-config');
    const cursor =
      events.find((event) => event.payload.type === 'inference_requested')!.sequence + 1;
    expect(whole.divergence.sequence).toBeLessThan(cursor);
    // Every inference request differs under the other timeout, so one after the cursor is found...
    const late = await replaySession(store, 's-config', other, { fromSequence: cursor });
    expect(late.ok).toBe(false);
    if (!late.ok) expect(late.divergence.sequence).toBeGreaterThan(cursor);
    // ...and a cursor past every effect result leaves nothing to re-decide.
    const tail = await replaySession(store, 's-config', other, { fromSequence: events.length });
    expect(tail).toMatchObject({ ok: true, inputs: 0, decided: 0 });
  });
});

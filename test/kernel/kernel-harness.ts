import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createCountingIdSource, type IdSource } from '../../src/core/base/id-source.js';
import { createSteppingClock } from '../../src/core/base/clock.js';
import {
  correxEventCatalog,
  type CorrexEvent,
  type CorrexEventStore,
} from '../../src/core/event-catalog.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import { createInferenceRouter } from '../../src/core/inference/inference-router.js';
import {
  createKernelConfig,
  type KernelConfig,
  type KernelLimits,
} from '../../src/core/kernel/kernel-config.js';
import type { KernelPorts, ToolRunner } from '../../src/core/kernel/kernel-ports.js';
import { replaySession } from '../../src/core/kernel/replay-session.js';
import { parseWorkspacePolicy } from '../../src/core/policies/workspace-policy.js';
import { createAssessmentPolicy } from '../../src/core/toolintent/default-rules.js';
import type { WorldProbe } from '../../src/core/toolintent/world-probe.js';
import { builtinTools } from '../../src/core/tools/builtin-tools.js';
import { z } from 'zod';
import {
  ChangeArtifactSchema,
  createDefaultCodingWorkflow,
} from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow, type Workflow } from '../../src/core/transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../../src/core/validation/default-validators.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
import {
  createScriptedProvider,
  type ScriptedTurn,
} from '../../src/infrastructure/providers/scripted-provider.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { tempDir } from '../support/temp-dir.js';

export const PROFILE = {
  id: 'scripted',
  provider: 'scripted',
  model: 'scripted-model',
  capabilities: ['tool_calling', 'json_output'] as const,
  contextWindow: 64_000,
  maxOutputTokens: 2_000,
};

/** One `implement` stage with the write tools; success completes, any failure ends it. */
export function implementOnlyWorkflow(maxAttempts = 1): Workflow {
  return parseWorkflow(
    {
      id: 'implement-only',
      initialStage: 'implement',
      stages: [
        {
          id: 'implement',
          role: 'implementer',
          instructions: 'Change the workspace as the task says.',
          allowedTools: ['read_file', 'write_file', 'edit_file', 'list_dir', 'exec'],
          capabilities: ['tool_calling'],
          artifact: { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) },
          retry: { maxAttempts, retryOn: ['tool', 'inference', 'provider'] },
          transitions: [
            { when: { on: 'success' }, end: 'completed' },
            { when: { on: 'failure' }, end: 'failed' },
          ],
        },
      ],
    },
    { source: 'implementOnlyWorkflow' },
  );
}

/** The kernel configuration every scenario uses; replay builds the identical one. */
export function scenarioConfig(
  options: { workflow?: Workflow; limits?: Partial<KernelLimits> } = {},
): KernelConfig {
  return createKernelConfig({
    workflow: options.workflow ?? createDefaultCodingWorkflow(),
    tools: builtinTools,
    policy: createAssessmentPolicy(parseWorkspacePolicy({})),
    router: createInferenceRouter({
      profiles: [{ ...PROFILE, capabilities: [...PROFILE.capabilities] }],
    }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: realpathSync(homedir()),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
}

/** A real temporary workspace with the given files, and a SQLite store beside it. */
export function scenarioWorkspace(files: Record<string, string>): {
  workspace: string;
  storePath: string;
} {
  const root = realpathSync(tempDir('correx-kernel-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  return { workspace, storePath: join(root, 'events.sqlite') };
}

export function openStore(path: string): CorrexEventStore {
  return openSqliteEventStore(path, { catalog: correxEventCatalog });
}

/**
 * Scripted turns whose text may name an accepted artifact as `{{artifact:<kind>}}`: the hash is
 * read from the context pack the model was shown, as a model would read it.
 */
export function scriptedModel(
  turns: readonly ScriptedTurn[],
): InferenceProvider & { requests: () => number } {
  const inner = createScriptedProvider({ turns, name: 'scripted' });
  return {
    name: inner.name,
    requests: () => inner.requests.length,
    request: (index) => (inner.requests[index]?.messages ?? []).map((m) => m.content).join('\n'),
    async infer(request, signal) {
      const result = await inner.infer(request, signal);
      const pack = request.messages.map((message) => message.content).join('\n');
      const text = result.text.replace(/\{\{artifact:([a-z]+)\}\}/g, (_match, kind: string) => {
        const hashes = [
          ...pack.matchAll(new RegExp(`Accepted ${kind} artifact ([0-9a-f]{64})`, 'g')),
        ];
        return hashes.at(-1)?.[1] ?? 'missing';
      });
      return { ...result, text };
    },
  };
}

export type Scenario = {
  readonly config: KernelConfig;
  readonly ports: KernelPorts;
  readonly clock: ReturnType<typeof createSteppingClock>;
  readonly ids: IdSource;
};

export function livePorts(
  provider: InferenceProvider,
  tools?: ToolRunner,
  probe?: WorldProbe,
): KernelPorts {
  return {
    providers: new Map([[provider.name, provider]]),
    tools: tools ?? createBuiltinToolRunner(),
    probe: probe ?? createDiskWorldProbe(),
  };
}

/** Replays a recorded session with no ports and expects byte-identical decisions. */
export async function expectReplayIdentical(
  store: CorrexEventStore,
  sessionId: string,
  config: KernelConfig,
) {
  const report = await replaySession(store, sessionId, config);
  if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
  expect(report.decided).toBeGreaterThan(0);
  return report;
}

export async function eventsOf(store: CorrexEventStore, sessionId: string): Promise<CorrexEvent[]> {
  return store.read(sessionId);
}

export function typesOf(events: readonly CorrexEvent[]): string[] {
  return events.map((event) => event.payload.type);
}

export function newIds(prefix = 'in'): IdSource {
  return createCountingIdSource(prefix);
}

export function newClock() {
  return createSteppingClock('2026-11-30T12:00:00.000Z', 7);
}

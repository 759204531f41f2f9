import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { join } from 'node:path';
import { correxEventCatalog, type EventPayload } from '../../src/core/event-catalog.js';
import { createInMemoryEventStore } from '../../src/core/events/in-memory-event-store.js';
import { replay } from '../../src/core/events/replay.js';
import {
  parseWorkspacePolicy,
  type WorkspacePolicyInput,
} from '../../src/core/policies/workspace-policy.js';
import {
  assessToolCall,
  pathsToObserve,
  type ToolCallAssessment,
} from '../../src/core/toolintent/assess-tool-call.js';
import {
  createAssessmentPolicy,
  defaultToolCallRules,
  type AssessmentPolicy,
} from '../../src/core/toolintent/default-rules.js';
import type { BehaviourFlags } from '../../src/core/base/behaviour-flag.js';
import type { SandboxKind } from '../../src/core/policies/sandbox-profile.js';

/**
 * The plane-2 behaviour these suites were written against: no flags (before issue #17), which
 * sessions recorded then still run with. Suites of later behaviour pass their flags.
 */
export const PRE_CONTAINMENT_FLAGS: BehaviourFlags = new Set();

export type PlaneTwoBehaviour = {
  readonly flags?: BehaviourFlags;
  readonly sandbox?: SandboxKind;
};
import {
  toolSessionProjection,
  toolSessionView,
} from '../../src/core/toolintent/tool-session-projection.js';
import type { WorldProbe } from '../../src/core/toolintent/world-probe.js';
import { builtinTools } from '../../src/core/tools/builtin-tools.js';
import type { ToolPathRoots } from '../../src/core/tools/tool-path.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * A real temporary workspace and home directory, a real on-disk WorldProbe, an event store, and
 * the loop the kernel will run: probe every path the call names, append `world_observed`,
 * rebuild the session view from events, assess, append `tool_call_assessed`.
 */
export function createPlaneTwoHarness(
  policyInput: WorkspacePolicyInput = {},
  behaviour: PlaneTwoBehaviour = {},
  /** Where the workspace lies; default a folder under /tmp (which the sandbox makes private). */
  where: { readonly under?: string } = {},
) {
  const build = (input: WorkspacePolicyInput) =>
    createAssessmentPolicy(parseWorkspacePolicy(input), defaultToolCallRules, {
      flags: behaviour.flags ?? PRE_CONTAINMENT_FLAGS,
      ...(behaviour.sandbox === undefined ? {} : { sandbox: behaviour.sandbox }),
    });
  const base = realpathSync(
    where.under === undefined
      ? tempDir('correx-security-')
      : mkdtempSync(join(where.under, 'plane-two-')),
  );
  if (where.under !== undefined) afterAll(() => rmSync(base, { recursive: true, force: true }));
  const workspace = join(base, 'workspace');
  const home = join(base, 'home');
  const outside = join(base, 'outside');
  for (const dir of [workspace, home, outside]) mkdirSync(dir, { recursive: true });
  const roots: ToolPathRoots = { workspaceRoot: workspace, homeDirectory: home };
  const store = createInMemoryEventStore<EventPayload>({ catalog: correxEventCatalog });
  let sessionCounter = 0;
  let eventCounter = 0;
  let policy: AssessmentPolicy = build(policyInput);

  const currentPolicy = () => policy;
  const append = async (sessionId: string, payload: EventPayload) => {
    eventCounter += 1;
    await store.append({
      eventId: `event-${String(eventCounter).padStart(6, '0')}`,
      sessionId,
      timestamp: '2026-11-30T12:00:00.000Z',
      payload,
    });
  };

  const viewOf = async (sessionId: string, manifest: readonly string[] | null = null) => {
    const { state } = await replay(store, toolSessionProjection, sessionId);
    return toolSessionView(state, roots, manifest);
  };

  const toolByName = (name: string) => {
    const tool = builtinTools.find((candidate) => candidate.name === name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    return tool;
  };

  return {
    base,
    workspace,
    home,
    outside,
    roots,
    store,
    setPolicy(input: WorkspacePolicyInput) {
      policy = build(input);
    },
    async newSession(options: { egress?: readonly string[] } = {}) {
      sessionCounter += 1;
      const sessionId = `session-${sessionCounter}`;
      await append(sessionId, {
        type: 'egress_allowlist_changed',
        added: [...(options.egress ?? [])],
        removed: [],
        by: 'policy',
        reason: 'session start',
      });
      return sessionId;
    },
    /** Records that the model read a workspace file (as a read_file receipt would). */
    async markRead(sessionId: string, relativePath: string) {
      const path = realpathSync(join(workspace, relativePath));
      const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
      await append(sessionId, {
        type: 'tool_receipt',
        callId: `read-${relativePath}`,
        tool: 'read_file',
        args: { path: relativePath },
        outcome: 'succeeded',
        exitCode: null,
        error: null,
        output: '',
        outputBytes: 0,
        outputSha256: sha,
        truncated: false,
        files: [{ path, access: 'read', before: sha, after: sha }],
        durationMs: 0,
      });
    },
    /** Live: probe, record observations, assess, record the assessment. */
    async assess(
      sessionId: string,
      toolName: string,
      args: unknown,
      options: {
        manifest?: readonly string[];
        probe?: WorldProbe;
        callId?: string;
        policy?: WorkspacePolicyInput;
      } = {},
    ): Promise<ToolCallAssessment> {
      const policy = options.policy === undefined ? currentPolicy() : build(options.policy);
      const call = {
        callId: options.callId ?? `call-${eventCounter + 1}`,
        tool: toolByName(toolName),
        args,
      };
      const probe = options.probe ?? createDiskWorldProbe();
      for (const path of pathsToObserve(policy, await viewOf(sessionId), call)) {
        await append(sessionId, {
          type: 'world_observed',
          callId: call.callId,
          observation: await probe.observe(path),
        });
      }
      const assessment = assessToolCall(
        policy,
        await viewOf(sessionId, options.manifest ?? null),
        call,
      );
      await append(sessionId, assessment);
      return assessment;
    },
    /** Replay: rebuilds the view from recorded events only and re-assesses; no probe exists here. */
    async reassess(
      sessionId: string,
      toolName: string,
      args: unknown,
      callId: string,
      manifest: readonly string[] | null = null,
    ) {
      const events = await store.read(sessionId);
      const cut = events.findIndex(
        (event) => event.payload.type === 'tool_call_assessed' && event.payload.callId === callId,
      );
      let state = toolSessionProjection.initial();
      for (const event of events.slice(0, cut)) state = toolSessionProjection.evolve(state, event);
      return {
        recorded: events[cut]!.payload,
        replayed: assessToolCall(policy, toolSessionView(state, roots, manifest), {
          callId,
          tool: toolByName(toolName),
          args,
        }),
      };
    },
  };
}

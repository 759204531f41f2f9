import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CorrexEventStore, EventPayload } from '../../../src/core/event-catalog.js';
import { createPreimageStore } from '../../../src/infrastructure/sandbox/preimage-store.js';
import { createExecExecutor } from '../../../src/infrastructure/tools/exec-tool.js';
import { createDiskWorldProbe } from '../../../src/infrastructure/world-probe/disk-world-probe.js';

export type ExecCall = { readonly stageId: string; readonly command: string };

/**
 * Runs each command for real in `workspace` through the exec executor (its change recorder keeps
 * the pre-images in `preimageDirectory`), and appends the session as the kernel records those
 * calls: the proposal and its receipt, inside the stage's start and end. `before` and `after`
 * add events around them (a configuration, an ending).
 */
export async function recordExecSession(
  store: CorrexEventStore,
  options: {
    readonly sessionId: string;
    readonly workspace: string;
    readonly preimageDirectory: string;
    readonly calls: readonly ExecCall[];
    readonly before?: readonly EventPayload[];
    readonly after?: readonly EventPayload[];
  },
): Promise<void> {
  const home = join(options.preimageDirectory, '..', 'home');
  mkdirSync(home, { recursive: true });
  const exec = createExecExecutor({
    probe: createDiskWorldProbe(),
    preimages: createPreimageStore(options.preimageDirectory),
  });
  const payloads: EventPayload[] = [
    {
      type: 'session_created',
      task: 'change files with commands',
      workspace: options.workspace,
      workflowId: 'default-coding',
      mode: 'auto',
    },
    ...(options.before ?? []),
  ];
  let stage: string | null = null;
  for (const [index, call] of options.calls.entries()) {
    if (call.stageId !== stage) {
      if (stage !== null) payloads.push({ type: 'stage_completed', stageId: stage, attempt: 1 });
      payloads.push({ type: 'stage_started', stageId: call.stageId, attempt: 1 });
      stage = call.stageId;
    }
    const callId = `${call.stageId}.${index + 1}`;
    const receipt = await exec.execute(
      { command: call.command },
      {
        callId,
        roots: { workspaceRoot: options.workspace, homeDirectory: home },
        observations: {},
        egressAllowlist: [],
      },
    );
    expect(receipt.outcome, receipt.output).toBe('succeeded');
    payloads.push(
      {
        type: 'tool_call_proposed',
        callId,
        stageId: call.stageId,
        tool: 'exec',
        argsRaw: JSON.stringify({ command: call.command }),
      },
      receipt,
    );
  }
  if (stage !== null) payloads.push({ type: 'stage_completed', stageId: stage, attempt: 1 });
  payloads.push(...(options.after ?? []));
  const start = Date.UTC(2026, 11, 1, 12, 0, 0);
  await store.appendAll(
    payloads.map((payload, index) => ({
      eventId: `${options.sessionId}-e${index + 1}`,
      sessionId: options.sessionId,
      timestamp: new Date(start + index * 1000).toISOString(),
      payload,
    })),
  );
}

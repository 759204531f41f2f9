import { toolReceiptOf } from '../../../src/infrastructure/tools/tool-executor.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CorrexEventStore, EventPayload } from '../../../src/core/event-catalog.js';
import { createPreimageStore } from '../../../src/infrastructure/sandbox/preimage-store.js';
import { createExecExecutor } from '../../../src/infrastructure/tools/exec-tool.js';
import { createDiskWorldProbe } from '../../../src/infrastructure/world-probe/disk-world-probe.js';
import { layeredRecord } from '../../../src/core/base/layered-record.js';

export type ExecCall = { readonly stageId: string; readonly command: string };

/**
 * Runs commands for real in `workspace` through the exec executor (its change recorder keeps
 * the pre-images in `preimageDirectory`); each call becomes what the kernel records of it: the
 * proposal and its receipt.
 */
export function createExecRecorder(workspace: string, preimageDirectory: string) {
  const home = join(preimageDirectory, '..', 'home');
  mkdirSync(home, { recursive: true });
  const exec = createExecExecutor({
    probe: createDiskWorldProbe(),
    preimages: createPreimageStore(preimageDirectory),
  });
  return async (callId: string, stageId: string, command: string): Promise<EventPayload[]> => {
    const receipt = await exec.execute(
      { command },
      {
        callId,
        roots: { workspaceRoot: workspace, homeDirectory: home },
        observations: layeredRecord(),
        egressAllowlist: [],
      },
    );
    expect(receipt.outcome, receipt.output).toBe('succeeded');
    return [
      {
        type: 'tool_call_proposed',
        callId,
        stageId,
        tool: 'exec',
        argsRaw: JSON.stringify({ command }),
      },
      toolReceiptOf({ callId, tool: 'exec', args: { command } }, receipt),
    ];
  };
}

/** Appends payloads as one session, a second apart from 2026-12-01T12:00:00Z. */
export async function appendSession(
  store: CorrexEventStore,
  sessionId: string,
  payloads: readonly EventPayload[],
): Promise<void> {
  const start = Date.UTC(2026, 11, 1, 12, 0, 0);
  await store.appendAll(
    payloads.map((payload, index) => ({
      eventId: `${sessionId}-e${index + 1}`,
      sessionId,
      timestamp: new Date(start + index * 1000).toISOString(),
      payload,
    })),
  );
}

/**
 * A session whose exec calls changed files for real: `session_created`, then each call inside
 * its stage's start and end; `before` and `after` add events around them.
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
  const run = createExecRecorder(options.workspace, options.preimageDirectory);
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
    payloads.push(...(await run(`${call.stageId}.${index + 1}`, call.stageId, call.command)));
  }
  if (stage !== null) payloads.push({ type: 'stage_completed', stageId: stage, attempt: 1 });
  payloads.push(...(options.after ?? []));
  await appendSession(store, options.sessionId, payloads);
}

import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../base/sha256.js';
import type { WorldObservation } from '../../../toolintent/toolintent-events.js';
import { execTool, readFileTool, writeFileTool } from '../../../tools/builtin-tools.js';
import { classifyInterruptedCall } from './classify-interrupted-call.js';
import {
  INTERRUPTED_EXEC_IS_UNKNOWN,
  INTERRUPTED_WRITE_ASKS_WHEN_CHANGED,
} from '../../config/kernel-flags.js';
import type { CallRecord } from '../../decider/kernel-state.js';
import { layeredRecord, type LayeredRecord } from '../../../base/layered-record.js';

const path = '/work/notes.txt';
const before = sha256Hex('old\n');
const written = sha256Hex('new\n');

function call(tool: string, args: CallRecord['args'], targets: CallRecord['targets']): CallRecord {
  return {
    callId: 'c1',
    tool,
    argsRaw: JSON.stringify(args),
    args,
    status: 'interrupted',
    observed: targets.map((target) => target.path),
    tier: 'T1',
    writeTargets: targets.map((target) => target.path),
    targets,
    failed: false,
    referenceBlocked: false,
    hookResults: null,
  };
}

function seen(sha256: string | null): LayeredRecord<WorldObservation> {
  return layeredRecord({
    [path]: {
      path,
      kind: sha256 === null ? 'missing' : 'file',
      realPath: path,
      linkTarget: null,
      sha256,
      size: null,
      mtimeMs: null,
      linkCount: null,
    },
  });
}

const idempotent = new Set(['write_file', 'read_file']);
const write = call('write_file', { path: 'notes.txt', content: 'new\n' }, [
  { path, sha256: before },
]);

describe('classifyInterruptedCall', () => {
  it('runs a write again when its target still holds the recorded content', () => {
    expect(classifyInterruptedCall(write, writeFileTool, seen(before), idempotent)).toMatchObject({
      classification: 'not_applied',
      action: 'execute',
      targets: [{ path, recorded: before, observed: before }],
    });
  });

  it('records a write whose target already holds exactly what it writes, without repeating it', () => {
    expect(classifyInterruptedCall(write, writeFileTool, seen(written), idempotent)).toMatchObject({
      classification: 'applied',
      action: 'record',
    });
  });

  it('treats a missing target recorded as missing as not applied', () => {
    const create = call('write_file', { path: 'notes.txt', content: 'new\n' }, [
      { path, sha256: null },
    ]);
    expect(
      classifyInterruptedCall(create, writeFileTool, seen(null), idempotent).classification,
    ).toBe('not_applied');
  });

  it('calls other changes unknown: an idempotent tool runs again, any other asks a person', () => {
    const other = seen(sha256Hex('someone else\n'));
    expect(classifyInterruptedCall(write, writeFileTool, other, idempotent)).toMatchObject({
      classification: 'unknown',
      action: 'execute',
    });
    expect(classifyInterruptedCall(write, writeFileTool, other, new Set())).toMatchObject({
      classification: 'unknown',
      action: 'ask',
    });
  });

  it('asks before writing again over a target changed since, idempotent or not (under its flag)', () => {
    // A person edited notes.txt after the crash, or a link on its path now leads elsewhere.
    const flags = new Set([INTERRUPTED_WRITE_ASKS_WHEN_CHANGED.name]);
    const other = seen(sha256Hex('someone else\n'));
    const missing = seen(null);
    for (const observed of [other, missing])
      expect(
        classifyInterruptedCall(write, writeFileTool, observed, idempotent, sha256Hex, flags),
      ).toMatchObject({ classification: 'unknown', action: 'ask' });
    // The pre-image or the written content still decide as before.
    expect(
      classifyInterruptedCall(write, writeFileTool, seen(before), idempotent, sha256Hex, flags),
    ).toMatchObject({ classification: 'not_applied', action: 'execute' });
    expect(
      classifyInterruptedCall(write, writeFileTool, seen(written), idempotent, sha256Hex, flags),
    ).toMatchObject({ classification: 'applied', action: 'record' });
  });

  it('asks before re-running an exec, whose effects the probe cannot see', () => {
    const exec = call('exec', { argv: ['make'] }, []);
    expect(classifyInterruptedCall(exec, execTool, layeredRecord(), idempotent)).toMatchObject({
      classification: 'unknown',
      action: 'ask',
      targets: [],
    });
  });

  it('never calls an exec "not applied" because its redirect targets are unchanged', () => {
    // `node effect.mjs >> notes.txt`: the program may have changed anything before the
    // redirect saw a byte, so an unchanged target proves nothing.
    const exec = call('exec', { command: 'node effect.mjs >> notes.txt' }, [
      { path, sha256: before },
    ]);
    const flags = new Set([INTERRUPTED_EXEC_IS_UNKNOWN.name]);
    expect(
      classifyInterruptedCall(exec, execTool, seen(before), new Set(), sha256Hex, flags),
    ).toMatchObject({
      classification: 'unknown',
      action: 'ask',
      reason: expect.stringContaining('runs a program'),
      targets: [{ path, recorded: before, observed: before }],
    });
    // Only when policy declares it idempotent does it run again by itself.
    expect(
      classifyInterruptedCall(exec, execTool, seen(before), new Set(['exec']), sha256Hex, flags),
    ).toMatchObject({ classification: 'unknown', action: 'execute' });
    // A session recorded without the flag re-derives what it did.
    expect(classifyInterruptedCall(exec, execTool, seen(before), new Set())).toMatchObject({
      classification: 'not_applied',
      action: 'execute',
    });
  });

  it('re-runs a read, which has nothing to lose or repeat', () => {
    const read = call('read_file', { path: 'notes.txt' }, []);
    expect(classifyInterruptedCall(read, readFileTool, layeredRecord(), idempotent)).toMatchObject({
      classification: 'not_applied',
      action: 'execute',
    });
  });
});

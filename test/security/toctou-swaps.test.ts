import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/core/events/replay.js';
import { toolSessionProjection } from '../../src/core/toolintent/tool-session-projection.js';
import { createBuiltinToolExecutors } from '../../src/infrastructure/tools/builtin-tool-executors.js';
import { executeToolCall } from '../../src/infrastructure/tools/tool-executor.js';
import { createPlaneTwoHarness } from './plane-two-harness.js';

/**
 * Swaps between assessment and execution: the call is assessed ALLOW on the world as it was,
 * then the world changes, and the executor's last-moment re-check must refuse to write,
 * producing a `tool_receipt` with outcome `world_changed` and leaving every file untouched.
 */
describe('TOCTOU swaps between assessment and execution', () => {
  const h = createPlaneTwoHarness();
  const executors = createBuiltinToolExecutors();

  async function assessThenSwap(
    tool: string,
    args: Record<string, unknown>,
    swap: () => void,
    read?: string,
  ) {
    const sessionId = await h.newSession();
    if (read !== undefined) await h.markRead(sessionId, read);
    const assessment = await h.assess(sessionId, tool, args);
    expect(assessment.verdict).toBe('ALLOW');
    swap();
    const { state } = await replay(h.store, toolSessionProjection, sessionId);
    return executeToolCall(executors, tool, args, {
      callId: assessment.callId,
      roots: h.roots,
      observations: state.observations,
      egressAllowlist: state.egressAllowlist,
    });
  }

  it('a directory swapped for a symlink to outside: nothing is written outside', async () => {
    mkdirSync(join(h.workspace, 'out'));
    const receipt = await assessThenSwap(
      'write_file',
      { path: 'out/report.txt', content: 'x' },
      () => {
        renameSync(join(h.workspace, 'out'), join(h.workspace, 'out-old'));
        symlinkSync(h.outside, join(h.workspace, 'out'));
      },
    );
    expect(receipt).toMatchObject({ outcome: 'world_changed' });
    expect(existsSync(join(h.outside, 'report.txt'))).toBe(false);
  });

  it('a read file swapped for a symlink to a file outside: the outside file keeps its content', async () => {
    writeFileSync(join(h.workspace, 'notes.txt'), 'mine');
    writeFileSync(join(h.outside, 'victim.txt'), 'victim');
    const receipt = await assessThenSwap(
      'edit_file',
      { path: 'notes.txt', search: 'mine', replace: 'pwned' },
      () => {
        renameSync(join(h.workspace, 'notes.txt'), join(h.workspace, 'notes.old'));
        symlinkSync(join(h.outside, 'victim.txt'), join(h.workspace, 'notes.txt'));
      },
      'notes.txt',
    );
    expect(receipt.outcome).toBe('world_changed');
    expect(readFileSync(join(h.outside, 'victim.txt'), 'utf8')).toBe('victim');
  });

  it('content rewritten by someone else after assessment: the newer content survives', async () => {
    writeFileSync(join(h.workspace, 'config.json'), '{"a":1}');
    const receipt = await assessThenSwap(
      'write_file',
      { path: 'config.json', content: '{}' },
      () => {
        writeFileSync(join(h.workspace, 'config.json'), '{"a":2}');
      },
      'config.json',
    );
    expect(receipt.outcome).toBe('world_changed');
    expect(readFileSync(join(h.workspace, 'config.json'), 'utf8')).toBe('{"a":2}');
  });

  it('a hard link created after assessment: refused, the linked file is untouched', async () => {
    writeFileSync(join(h.outside, 'shared.txt'), 'shared');
    const receipt = await assessThenSwap('write_file', { path: 'fresh.txt', content: 'x' }, () => {
      linkSync(join(h.outside, 'shared.txt'), join(h.workspace, 'fresh.txt'));
    });
    expect(receipt.outcome).toBe('world_changed');
    expect(readFileSync(join(h.outside, 'shared.txt'), 'utf8')).toBe('shared');
  });
});

import { rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type JsonValue } from '../../src/core/events/canonical-json.js';
import { createPlaneTwoHarness } from './plane-two-harness.js';

describe('assessment replays from recorded observations without touching the disk', () => {
  it('re-derives byte-identical tool_call_assessed payloads after the workspace is gone', async () => {
    const h = createPlaneTwoHarness();
    mkdirSync(join(h.workspace, 'src'));
    writeFileSync(join(h.workspace, 'src/a.ts'), 'export const a = 1;\n');
    symlinkSync(h.outside, join(h.workspace, 'escape'));
    const sessionId = await h.newSession({ egress: ['registry.npmjs.org'] });
    await h.markRead(sessionId, 'src/a.ts');
    const calls = [
      {
        id: 'c1',
        tool: 'write_file',
        args: { path: 'src/a.ts', content: 'export const a = 2;\n' },
      },
      { id: 'c2', tool: 'write_file', args: { path: 'escape/x.ts', content: 'x' } },
      { id: 'c3', tool: 'read_file', args: { path: 'src/a.ts' } },
      {
        id: 'c4',
        tool: 'exec',
        args: { command: 'ls src | grep a > out.txt; curl https://registry.npmjs.org/x' },
      },
      { id: 'c5', tool: 'copy_file', args: { source: 'src/missing.ts', destination: 'src/b.ts' } },
    ];
    for (const call of calls) await h.assess(sessionId, call.tool, call.args, { callId: call.id });

    // The workspace is gone: if replay looked at the disk, every path would now be missing.
    rmSync(h.workspace, { recursive: true, force: true });
    for (const call of calls) {
      const { recorded, replayed } = await h.reassess(sessionId, call.tool, call.args, call.id);
      expect(canonicalJson(replayed as unknown as JsonValue)).toBe(
        canonicalJson(recorded as unknown as JsonValue),
      );
    }
    const verdicts = (await h.store.read(sessionId)).flatMap((event) =>
      event.payload.type === 'tool_call_assessed' ? [event.payload.verdict] : [],
    );
    expect(verdicts).toEqual(['ALLOW', 'BLOCK', 'ALLOW', 'BLOCK', 'BLOCK']);
  });
});

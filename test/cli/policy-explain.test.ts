import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

/** Issue #41: `correx policy explain` through the real CLI, over the session the demo records. */
describe('correx policy explain', () => {
  it('prints what decided a call in the order it applied, as JSON too; an unknown call fails naming it', async () => {
    const root = realpathSync(tempDir('correx-policy-explain-test-'));
    const home = join(root, 'home');
    const demo = await correx(home, ['demo', '--workspace', join(root, 'workspace')]);
    expect(demo.code, demo.stdout + demo.stderr).toBe(0);
    const sessionId = /correx show (\S+)/.exec(demo.stdout)![1]!;

    // By a start of the session id: the demo's first exec, assessed, approved by the mode, run.
    const ran = await correx(home, [
      'policy',
      'explain',
      sessionId.slice(0, 12),
      'implement.1.1.1',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('call implement.1.1.1 exec (stage implement)');
    expect(lines[1]).toMatch(/^1 sandbox: (bubblewrap|none) \(from the call's receipt\)/);
    expect(lines).toContain('2 rules: ALLOW at T2, risk medium');
    expect(lines).toContain('  exec-interpreter info programs: runs node inside the sandbox');
    expect(lines.some((line) => line.startsWith('3 policy: '))).toBe(true);
    expect(lines).toContain('4 grant: none');
    expect(lines).toContain('5 mode: auto');
    expect(lines.some((line) => /^6 decision: approved by auto auto/.test(line))).toBe(true);
    // The demo's first test run fails, by design: it ran, and the receipt says how it ended.
    expect(lines.at(-1)).toBe('7 ran: failed exit 1: exit code 1');

    // With --last, and --json: one object, the same facts.
    const json = await correx(home, ['--last', 'policy', 'explain', 'implement.1.2.1', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const explanation = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(explanation).toMatchObject({
      sessionId,
      callId: 'implement.1.2.1',
      assessment: null,
      decision: { outcome: 'rejected' },
      ran: null,
    });

    const unknown = await correx(home, ['policy', 'explain', sessionId, 'no.such.call']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`session ${sessionId} has no tool call no.such.call`);
  });
});

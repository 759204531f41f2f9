import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type Line = Record<string, unknown> & { type?: string; payload?: Record<string, unknown> };

const call = (id: string, name: string, args: Record<string, unknown>) =>
  sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));

/**
 * `policy.approvalTimeoutMs` under `correx run --wait-for-approval`: the run that waits for a
 * decision made elsewhere is the session's driver, so it must end the wait at the recorded
 * deadline itself — recording the timeout and the denial — and go on.
 */
describe('the approval timeout under correx run --wait-for-approval', () => {
  const world = cliWorld('correx-approval-timeout-test-');

  it('records approval_timed_out and a denial by timeout at the deadline, and the run goes on to the end', async () => {
    const home = join(world.root, 'timeout-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'harness.yaml'), 'policy:\n  approvalTimeoutMs: 1500\n');
    world.model.reply(
      call('call_1', 'write_file', { path: 'hello.txt', content: 'never\n' }),
      call('call_2', 'finish_change', { summary: 'nothing written', filesChanged: [] }),
    );
    // No decision ever comes; the wait's own bound (60 s) is far past the policy's deadline,
    // so only the timeout firing ends the run with exit 0 instead of 4.
    const result = await correx(
      home,
      [
        'run',
        'write hello.txt',
        '--workspace',
        world.workspace('timeout-ws'),
        '--workflow',
        world.workflowFile,
        '--mode',
        'prompt',
        '--json',
        '--wait-for-approval',
        '60s',
      ],
      world.env,
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const payload = (type: string) => lines.find((line) => line.payload?.type === type)?.payload;
    const requested = payload('approval_requested')!;
    expect(typeof requested.deadline).toBe('string');
    expect(payload('approval_timed_out')).toMatchObject({
      callId: requested.callId,
      deadline: requested.deadline,
    });
    expect(payload('approval_denied')).toMatchObject({
      callId: requested.callId,
      by: { kind: 'timeout' },
    });
    const timedOutAt = lines.find((line) => line.payload?.type === 'approval_timed_out')!;
    expect(Date.parse(timedOutAt.timestamp as string)).toBeGreaterThanOrEqual(
      Date.parse(requested.deadline as string),
    );
    expect(payload('approval_granted')).toBeUndefined();
    expect(lines.at(-1)).toMatchObject({ type: 'summary', status: 'completed', exitCode: 0 });
  }, 120_000);
});

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { correxEventCatalog, type CorrexEvent } from '../../src/core/event-catalog.js';
import { replaySession, sessionConfiguredPayload } from '../../src/core/kernel/index.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { demoKernelConfig } from '../../src/interfaces/cli/commands/demo-config.js';
import { tempDir } from '../support/temp-dir.js';
import { CORREX_CLI } from './cli-process.js';

const run = promisify(execFile);

/** Runs the real CLI in a child process against a temporary CORREX_HOME. */
async function correx(home: string, args: string[], tmp = home) {
  // TMPDIR: the default demo workspace lands in this test's temporary folder, removed afterwards.
  const env: NodeJS.ProcessEnv = { ...process.env, CORREX_HOME: home, TMPDIR: tmp };
  delete env.CORREX_STORE;
  try {
    const { stdout, stderr } = await run(process.execPath, [...CORREX_CLI, ...args], {
      env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function payloadsOf<T extends CorrexEvent['payload']['type']>(
  events: readonly CorrexEvent[],
  type: T,
): Extract<CorrexEvent['payload'], { type: T }>[] {
  return events.flatMap((event) =>
    event.payload.type === type
      ? [event.payload as Extract<CorrexEvent['payload'], { type: T }>]
      : [],
  );
}

describe('correx demo', () => {
  const root = realpathSync(tempDir('correx-demo-test-'));
  const home = join(root, 'home');
  const stores: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it('fixes the sample through the default workflow, and the session replays byte for byte', async () => {
    const workspace = join(root, 'workspace');
    const result = await correx(home, ['demo', '--workspace', workspace]);
    // Only a machine without bubblewrap has something to say on stderr: that it runs unsandboxed.
    expect(result.stderr.replace(/^correx: commands run UNSANDBOXED.*\n/m, '')).toBe('');
    expect(result.code).toBe(0);
    for (const stage of ['plan', 'implement', 'verify', 'review'])
      expect(result.stdout).toContain(`▶ stage ${stage} (attempt 1)`);
    expect(result.stdout).toContain('✓ workflow completed');
    const sessionId = /^session\s+(\S+) \(completed/m.exec(result.stdout)?.[1];
    expect(sessionId).toBeDefined();
    expect(result.stdout).toContain(`correx replay ${sessionId} --verify`);

    // The sample's own tests pass in the workspace, run here independently of the demo.
    execFileSync(process.execPath, ['--test'], { cwd: workspace, stdio: 'pipe' });

    const store = openSqliteEventStore(join(home, 'correx.db'), { catalog: correxEventCatalog });
    stores.push(store);
    const events = await store.read(sessionId!);

    // A malformed call was rejected with the schema, and the same tool then ran with valid args.
    const rejected = payloadsOf(events, 'tool_call_rejected');
    expect(rejected).toMatchObject([{ tool: 'edit_file', reason: 'malformed_args' }]);
    expect(rejected[0]!.argsSchema).not.toBeNull();
    const receipts = payloadsOf(events, 'tool_receipt');
    expect(receipts.filter((r) => r.tool === 'edit_file')).toMatchObject([
      { outcome: 'succeeded' },
    ]);
    // ...after the rejection: the corrected call came in a later turn, once the hint was shown.
    const sequenceOf = (match: (event: CorrexEvent) => boolean) =>
      events.find(match)?.sequence ?? Number.NaN;
    const rejectedAt = sequenceOf((e) => e.payload.type === 'tool_call_rejected');
    const editedAt = sequenceOf(
      (e) => e.payload.type === 'tool_receipt' && e.payload.tool === 'edit_file',
    );
    const turnsBetween = events.filter(
      (e) =>
        e.payload.type === 'inference_requested' &&
        e.sequence > rejectedAt &&
        e.sequence < editedAt,
    );
    expect(turnsBetween).toHaveLength(1);

    // The write outside the workspace was blocked by policy and never ran.
    const blocked = payloadsOf(events, 'tool_call_assessed').filter((a) => a.verdict === 'BLOCK');
    expect(blocked).toMatchObject([{ tool: 'write_file' }]);
    const denied = payloadsOf(events, 'approval_denied');
    expect(denied).toMatchObject([
      { callId: blocked[0]!.callId, by: { kind: 'auto', id: 'policy' } },
    ]);
    expect(receipts.some((r) => r.tool === 'write_file')).toBe(false);

    // The tests really ran: failing before the fix, passing after it.
    expect(receipts.filter((r) => r.tool === 'exec').map((r) => [r.outcome, r.exitCode])).toEqual([
      ['failed', 1],
      ['succeeded', 0],
      ['succeeded', 0],
    ]);
    const firstExec = receipts.find((r) => r.tool === 'exec')!;
    expect(firstExec.output).toContain('numbers are ordered by value');

    // The review stage recorded its verdict, naming the accepted change artifact.
    const review = payloadsOf(events, 'stage_completed').find((s) => s.stageId === 'review');
    expect(review?.verdict).toBe('approved');
    expect(events.at(-1)?.payload.type).toBe('workflow_completed');

    expect(await store.verify(sessionId!)).toMatchObject({ ok: true });
    // The demo's kernel config is the one the session recorded, sandbox kind included.
    const live = demoKernelConfig({
      homeDirectory: realpathSync(homedir()),
      correxHome: realpathSync(home),
      sandbox:
        existsSync('/usr/bin/bwrap') ||
        existsSync('/usr/local/bin/bwrap') ||
        existsSync('/bin/bwrap')
          ? 'bubblewrap'
          : 'none',
    });
    expect(events[0]?.payload).toEqual(sessionConfiguredPayload(live));
    const report = await replaySession(store, sessionId!);
    if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence)}`);
    expect(report.events).toBe(events.length);
    expect(report.undecidedInput).toBe(false);
  });

  it('refuses a workspace that is not empty, with exit 2 and one clear line', async () => {
    const workspace = join(root, 'busy');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'keep.txt'), 'mine\n');
    const result = await correx(home, ['demo', '--workspace', workspace]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `correx: --workspace ${workspace} is not empty; give an empty or new folder`,
    );
  });

  it('refuses, before copying anything, a folder inside correx home: given, or the temporary folder', async () => {
    const given = join(home, 'inside');
    const refused = await correx(home, ['demo', '--workspace', given]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `correx: workspace ${given} is inside ${home}, which correx keeps out of the agent's reach; choose a folder outside it`,
    );
    expect(existsSync(given)).toBe(false);
    // The default folder goes in TMPDIR; one inside the home would see every tool call refused.
    const temporary = join(home, 'tmp');
    mkdirSync(temporary, { recursive: true });
    const fromTmp = await correx(home, ['demo'], temporary);
    expect(fromTmp.code).toBe(2);
    expect(fromTmp.stderr).toContain(
      `the demo's folder goes in the temporary folder ${temporary}, which is inside ${home}`,
    );
    expect(readdirSync(temporary)).toEqual([]);
  });

  it('prints a JSON summary with --json', async () => {
    const result = await correx(home, ['demo', '--json'], root);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ status: 'completed', testsPass: true, ok: true });
    expect(summary.events).toBeGreaterThan(50);
    expect(String(summary.workspace).startsWith(root)).toBe(true);
  });
});

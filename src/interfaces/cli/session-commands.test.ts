import { describe, expect, it } from 'vitest';
import { cliTestDefaults } from '../../../test/support/cli-test-context.js';
import { createSteppingClock } from '../../core/base/clock.js';
import { createCountingIdSource } from '../../core/base/id-source.js';
import { correxEventCatalog, type EventPayload } from '../../core/event-catalog.js';
import { InMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import type { CliContext } from './cli-context.js';
import { runCli } from './program.js';

/** A session waiting for a person to approve call-1, written as the kernel writes it. */
async function waitingSession(
  driver: Awaited<ReturnType<NonNullable<CliContext['sessionDriver']>>> = undefined,
) {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog });
  const payloads: EventPayload[] = [
    {
      type: 'session_created',
      task: 'fix it',
      workspace: '/work/ws',
      workflowId: 'default-coding',
      mode: 'prompt',
    },
    { type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'implement' },
    { type: 'stage_started', stageId: 'implement', attempt: 1 },
    {
      type: 'approval_requested',
      callId: 'call-1',
      tool: 'exec',
      tier: 'T2',
      reason: 'runs npm test',
    },
  ];
  await store.appendAll(
    payloads.map((payload, index) => ({
      eventId: `k-${index}`,
      sessionId: 's',
      timestamp: `2026-11-30T12:00:0${index}.000Z`,
      payload,
    })),
  );
  const out: string[] = [];
  const err: string[] = [];
  const context: CliContext = {
    ...cliTestDefaults,
    version: '0',
    correxHome: '/unused',
    defaultStore: 'memory',
    clock: createSteppingClock('2026-11-30T12:01:00.000Z', 1000),
    ids: createCountingIdSource('cli'),
    user: 'alice',
    openStores: async (location) => ({
      kind: 'memory',
      location,
      events: store,
      close: async () => {},
    }),
    migrateStore: async () => {
      throw new Error('not used');
    },
    sessionDriver: async () => driver,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  };
  return { store, out, err, run: (...argv: string[]) => runCli(context, argv) };
}

describe('correx approvals, approve, deny, steer, pause, cancel', () => {
  it('lists a pending approval and records a human approval of it, once', async () => {
    const h = await waitingSession();
    expect(await h.run('approvals', 's')).toBe(0);
    expect(h.out.at(-1)).toMatch(/call-1\s+exec\s+T2/);
    expect(await h.run('approve', 's', 'call-1', '--reason', 'tests only')).toBe(0);
    expect(h.out.at(-1)).toBe('recorded approval_granted as #5 in session s');
    const [granted] = await h.store.read('s', { afterSequence: 4 });
    expect(granted!.payload).toEqual({
      type: 'approval_granted',
      callId: 'call-1',
      by: { kind: 'human', id: 'alice' },
      reason: 'tests only',
    });
    expect(await h.run('approvals', 's')).toBe(0);
    expect(h.out.at(-1)).toBe('no approvals pending in session s');
    expect(await h.run('approve', 's', 'call-1')).toBe(1);
    expect(h.err.at(-1)).toMatch(/call-1 is not awaiting approval/);
    expect(await h.store.lastSequence('s')).toBe(5);
  });

  it('deny needs a reason and records it', async () => {
    const h = await waitingSession();
    expect(await h.run('deny', 's', 'call-1')).toBe(2);
    expect(await h.run('deny', 's', 'call-1', '--reason', 'not now', '--by', 'bob')).toBe(0);
    const [denied] = await h.store.read('s', { afterSequence: 4 });
    expect(denied!.payload).toMatchObject({
      type: 'approval_denied',
      callId: 'call-1',
      by: { kind: 'human', id: 'bob' },
      reason: 'not now',
    });
  });

  it('refuses a --by that names a decider correx reserves, recording nothing', async () => {
    const h = await waitingSession();
    for (const by of ['auto', 'Policy', 'auto:policy', 'correx-shutdown'])
      expect(await h.run('approve', 's', 'call-1', '--by', by)).toBe(2);
    expect(h.err.join('\n')).toMatch(/reserved/);
    expect(await h.store.lastSequence('s')).toBe(4);
  });

  it('steers, pauses and cancels; an illegal move is refused and recorded as such', async () => {
    const h = await waitingSession();
    expect(await h.run('steer', 's', 'keep the API stable', '--stage', 'implement')).toBe(0);
    expect(await h.run('pause', 's', '--reason', 'lunch')).toBe(0);
    expect(await h.run('pause', 's')).toBe(1);
    expect(h.err.at(-1)).toMatch(/^correx: refused: /);
    expect(await h.run('cancel', 's')).toBe(0);
    const types = (await h.store.read('s', { afterSequence: 4 })).map(
      (event) => event.payload.type,
    );
    expect(types).toEqual([
      'steering_note_added',
      'orchestration_paused',
      'lifecycle_rejected',
      'workflow_cancelled',
    ]);
    expect(await h.run('steer', 'ghost', 'hello')).toBe(1);
    expect(h.err.at(-1)).toMatch(/no session ghost/);
    // A cancelled session reads no more notes: refused, not recorded.
    const last = await h.store.lastSequence('s');
    expect(await h.run('steer', 's', 'too late')).toBe(1);
    expect(h.err.at(-1)).toMatch(
      /session s is cancelled; a steering note could never reach its model/,
    );
    expect(await h.store.lastSequence('s')).toBe(last);
  });
});

describe('what the command line says about a session nobody drives, and refusals', () => {
  it('refuses to steer a finished session, recording nothing', async () => {
    const h = await waitingSession();
    expect(await h.run('cancel', 's')).toBe(0);
    const before = await h.store.lastSequence('s');
    expect(await h.run('steer', 's', 'too late')).toBe(1);
    expect(h.err.at(-1)).toMatch(
      /session s is cancelled; a steering note could never reach its model/,
    );
    expect(await h.store.lastSequence('s')).toBe(before);
  });

  it('shows a running log nobody drives as interrupted, with how to continue it', async () => {
    const h = await waitingSession(null);
    expect(await h.run('show', 's')).toBe(0);
    expect(h.out.at(-1)).toMatch(
      /^status {4}interrupted \(nobody driving\) \(in stage implement\); continue with: correx resume s$/m,
    );
    expect(await h.run('sessions')).toBe(0);
    expect(h.out.at(-1)).toMatch(/s\s+interrupted \(nobody driving\) \(1 to approve\)/);
  });

  it('a redirect nobody drives is said to wait for a resume', async () => {
    const h = await waitingSession(null);
    expect(await h.run('redirect', 's', 'review')).toBe(0);
    expect(h.out.at(-1)).toMatch(
      /nobody drives session s now: the redirect is decided when it runs again/,
    );
  });

  it('a redirect the driving session refuses is printed with its reason and exits 1', async () => {
    const h = await waitingSession({ pid: 1, host: 'here' });
    const running = h.run('redirect', 's', 'deploy');
    // The driving process decides: it records the refusal after the request.
    await expect.poll(() => h.store.lastSequence('s')).toBe(5);
    await h.store.append({
      eventId: 'k-refused',
      sessionId: 's',
      timestamp: '2026-11-30T12:00:09.000Z',
      payload: {
        type: 'redirect_rejected',
        from: 'implement',
        to: 'deploy',
        by: 'alice',
        message: 'workflow default-coding has no stage deploy',
      },
    });
    expect(await running).toBe(1);
    expect(h.err.at(-1)).toBe('correx: refused: workflow default-coding has no stage deploy');
  });
});

describe('recordCommand', () => {
  it('decides again after a running session appended meanwhile, recording the command once', async () => {
    const { recordCommand } = await import('../../core/kernel/runner/record-command.js');
    const h = await waitingSession();
    let raced = false;
    const racing = {
      stream: (sessionId: string, options?: { afterSequence?: number }) =>
        h.store.stream(sessionId, options),
      appendAll: async (...args: Parameters<typeof h.store.appendAll>) => {
        if (!raced) {
          raced = true;
          await h.store.append({
            eventId: 'kernel-x',
            sessionId: 's',
            timestamp: '2026-11-30T12:00:30.000Z',
            payload: { type: 'steering_note_added', sessionId: 's', content: 'meanwhile' },
          });
        }
        return h.store.appendAll(...args);
      },
    } as unknown as Parameters<typeof recordCommand>[1];
    const context = {
      clock: createSteppingClock('2026-11-30T12:01:00.000Z'),
      ids: createCountingIdSource('rc'),
    };
    const stored = await recordCommand(context, racing, 's', {
      type: 'approve',
      callId: 'call-1',
      by: 'alice',
    });
    expect(stored.map((event) => [event.sequence, event.payload.type])).toEqual([
      [6, 'approval_granted'],
    ]);
    expect(
      (await h.store.read('s')).filter((event) => event.payload.type === 'approval_granted'),
    ).toHaveLength(1);
  });
});

describe('correx show', () => {
  it('shows the header, what the session waits for and the numbered timeline', async () => {
    const h = await waitingSession();
    expect(await h.run('show', 's')).toBe(0);
    const text = h.out.at(-1)!;
    expect(text).toMatch(/^session {3}s$/m);
    expect(text).toMatch(/^status {4}running \(in stage implement\)$/m);
    expect(text).toMatch(/^task {6}fix it$/m);
    expect(text).toMatch(/^waiting {3}for approval of call-1 \(exec, T2\)$/m);
    expect(text).toContain('    3  ▶ stage implement (attempt 1)');
    expect(text).toContain('    4    [call-1] waiting for approval (T2): runs npm test');
    expect(await h.run('show', 's', '--json')).toBe(0);
    expect(JSON.parse(h.out.at(-1)!)).toMatchObject({
      status: 'running',
      pendingApprovals: [{ callId: 'call-1' }],
    });
    expect(await h.run('show', 'ghost')).toBe(1);
  });
});

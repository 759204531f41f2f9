import { describe, expect, it } from 'vitest';
import { correxEventCatalog, type EventPayload } from '../../core/event-catalog.js';
import { createInMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import { describePendingCall } from './pending-call.js';

/** A session whose exec call waits for a person, with the arguments the model sent. */
async function waitingExec(args: object, targets: object[] = []) {
  const store = createInMemoryEventStore({ catalog: correxEventCatalog });
  const payloads: EventPayload[] = [
    {
      type: 'session_created',
      task: 'Run the tests',
      workspace: '/home/ana/stats',
      workflowId: 'default',
      mode: 'prompt',
    },
    {
      type: 'tool_call_proposed',
      callId: 'implement.1.1.1',
      stageId: 'implement',
      tool: 'exec',
      argsRaw: JSON.stringify(args),
    },
    {
      type: 'tool_call_assessed',
      callId: 'implement.1.1.1',
      tool: 'exec',
      verdict: 'ASK',
      tier: 'T2',
      risk: 'medium',
      findings: [],
      targets,
    } as EventPayload,
    {
      type: 'approval_requested',
      callId: 'implement.1.1.1',
      tool: 'exec',
      tier: 'T2',
      reason: 'runs node',
    },
  ];
  for (const [index, payload] of payloads.entries())
    await store.append({
      eventId: `e${index + 1}`,
      sessionId: 's1',
      timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, index)).toISOString(),
      payload,
    });
  return describePendingCall(store, 's1', 'implement.1.1.1');
}

describe("the CLI's approval prompt for an exec call", () => {
  it('shows the command line a person would type (shell-quoted argv) and its folder, as the web card does', async () => {
    const view = await waitingExec({ argv: ['node', '--test', 'test/a b.test.js'] });
    expect(view.lines.slice(0, 2)).toEqual([
      "  $ node --test 'test/a b.test.js'",
      '    in /home/ana/stats',
    ]);
  });

  it('runs in its resolved cwd when it names one', async () => {
    const view = await waitingExec({ command: 'npm test', cwd: 'pkg' }, [
      {
        role: 'PATH',
        param: 'cwd',
        raw: 'pkg',
        resolved: '/home/ana/stats/pkg',
        realPath: '/home/ana/stats/pkg',
        write: false,
      },
    ]);
    expect(view.lines.slice(0, 2)).toEqual(['  $ npm test', '    in /home/ana/stats/pkg']);
  });
});

describe('the approval prompt of an interrupted call', () => {
  /** The frozen `s-crash` session's exec, interrupted after it started, asking a person. */
  async function interrupted() {
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    const payloads: EventPayload[] = [
      {
        type: 'session_created',
        task: 'Run the tests',
        workspace: '/home/ana/stats',
        workflowId: 'default',
        mode: 'auto',
      },
      {
        type: 'tool_call_proposed',
        callId: 'c1',
        stageId: 'implement',
        tool: 'exec',
        argsRaw: '{"argv":["make"]}',
      },
      { type: 'tool_call_started', callId: 'c1', tool: 'exec', targets: [] } as EventPayload,
      { type: 'tool_call_interrupted', callId: 'c1', tool: 'exec' },
      { type: 'approval_requested', callId: 'c1', tool: 'exec', tier: 'T2', reason: 'unknown' },
    ];
    for (const [index, payload] of payloads.entries())
      await store.append({
        eventId: `e${index + 1}`,
        sessionId: 's1',
        timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, index)).toISOString(),
        payload,
      });
    return store;
  }

  it('says whether the driver that started it has stopped, from the store’s driver records', async () => {
    const store = await interrupted();
    const lost = await describePendingCall(store, 's1', 'c1', async () => [
      { driver: 'correx worker a', fromSequence: 0, epoch: 1, releasedAt: null, stoppedAt: null },
      { driver: 'correx worker b', fromSequence: 3, epoch: 2, releasedAt: null, stoppedAt: null },
    ]);
    expect(lost.lines.at(-1)).toMatch(
      /^ {2}interrupted {2}started by correx worker a, which has not said it stopped: the command may still be running/,
    );
    const none = await describePendingCall(store, 's1', 'c1');
    expect(none.lines.at(-1)).toMatch(/not known here; check before deciding/);
  });
});

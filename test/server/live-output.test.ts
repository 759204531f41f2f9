import { realpathSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import type { ServerMessage } from '../../src/interfaces/protocol/server-message.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { startProductionServer, waitForEvent } from './support/production-server.js';
import { api, connect, isType } from './support/server-fixture.js';

/** Prints three lines, one at a time, so that they arrive as several reads. */
const COMMAND = 'for i in 1 2 3; do echo "line $i"; sleep 0.2; done';
const FIRST_TEXT = ['I will print ', 'three lines.'];
const SECOND_TEXT = ['All ', 'three ', 'lines ', 'printed.'];

const root = realpathSync(outsideTmpFolder());

/** The model's two streamed answers: text and an exec call, then text and the stage's result. */
function scriptModel(model: FakeHttpServer): void {
  model.reply(
    sse(
      chatCompletionStream({
        text: FIRST_TEXT,
        toolCalls: [
          { id: 'call_1', name: 'exec', arguments: JSON.stringify({ command: COMMAND }) },
        ],
      }),
    ),
    sse(
      chatCompletionStream({
        text: SECOND_TEXT,
        toolCalls: [
          {
            id: 'call_2',
            name: 'finish_change',
            arguments: JSON.stringify({ summary: 'printed three lines', filesChanged: [] }),
          },
        ],
      }),
    ),
  );
}

/**
 * One session through the production host (real provider over the OpenAI wire, the built-in
 * exec under this machine's sandbox) served by a real server, in prompt mode so the command
 * waits for an approval: a watcher can subscribe before it runs. Same clock, ids, workspace and
 * model each time, so two runs record the same log.
 */
async function runSession(
  model: FakeHttpServer,
  name: string,
  watch: boolean,
): Promise<{ events: CorrexEvent[]; messages: ServerMessage[]; sessionId: string }> {
  scriptModel(model);
  const server = await startProductionServer({ root, modelUrl: model.url, name });
  const { address, store, workspace, workflow } = server;
  try {
    const started = await api(address).post('/api/sessions', {
      task: 'print three lines',
      workspace,
      workflow,
      mode: 'prompt',
    });
    expect(started.status).toBe(201);
    const { sessionId } = started.body as { sessionId: string };
    const client = watch ? await connect(address) : undefined;
    client?.send({ type: 'subscribe', sessionId });
    const waitFor = (type: string) => waitForEvent(store, sessionId, type);
    const asked = (await waitFor('approval_requested')).find(
      (event) => event.payload.type === 'approval_requested',
    )!;
    const callId = (asked.payload as { callId: string }).callId;
    if (client !== undefined) await client.next(isType('approval_requested', sessionId));
    const approved = await api(address).post(`/api/sessions/${sessionId}/approvals/${callId}`, {
      decision: 'approve',
    });
    expect(approved.status).toBe(200);
    await waitFor('workflow_completed');
    if (client !== undefined)
      await client.next(
        (message) => message.type === 'event' && message.event.type === 'workflow_completed',
      );
    const messages = client === undefined ? [] : [...client.messages];
    await client?.close();
    return { events: await store.read(sessionId), messages, sessionId };
  } finally {
    await server.close();
  }
}

/** What a run records, without what its own timing measured (latency, duration). */
function recorded(events: readonly CorrexEvent[]): unknown[] {
  return events.map((event) =>
    JSON.parse(
      JSON.stringify({ ...event, position: undefined, hash: undefined }, (key, value: unknown) =>
        key === 'latencyMs' || key === 'durationMs' ? 0 : value,
      ),
    ),
  );
}

describe('live output over the WebSocket', () => {
  let model: FakeHttpServer;
  beforeAll(async () => {
    model = await startFakeHttpServer();
  });
  afterAll(async () => {
    await model.close();
  });

  it("streams a command's output and the model's text before their recorded results, and records the same log as an unwatched run", async () => {
    const watched = await runSession(model, 'watched', true);
    const { messages, sessionId, events } = watched;
    const at = (test: (message: ServerMessage) => boolean) => messages.findIndex(test);
    const live = messages.filter(
      (message): message is Extract<ServerMessage, { type: 'live' }> => message.type === 'live',
    );
    expect(live.every((message) => message.sessionId === sessionId)).toBe(true);

    // The command's output, piece by piece, before its receipt; together exactly what it recorded.
    const receipt = events.find((event) => event.payload.type === 'tool_receipt')!;
    const receiptPayload = receipt.payload as { callId: string; output: string };
    const output = live.filter(
      (message) => message.kind === 'command_output' && message.id === receiptPayload.callId,
    );
    expect(output.map((message) => message.chunk).join('')).toBe('line 1\nline 2\nline 3\n');
    expect(receiptPayload.output).toBe('line 1\nline 2\nline 3\n');
    const receiptAt = at(
      (message) => message.type === 'event' && message.event.type === 'tool_receipt',
    );
    expect(receiptAt).toBeGreaterThan(-1);
    expect(
      at((message) => message.type === 'live' && message.kind === 'command_output'),
    ).toBeLessThan(receiptAt);
    expect(messages.lastIndexOf(output.at(-1)!)).toBeLessThan(receiptAt);

    // The second model call's text, delta by delta, before its inference_completed.
    const completed = events.filter((event) => event.payload.type === 'inference_completed');
    const second = completed.at(-1)!.payload as { requestId: string; result: { text: string } };
    const text = live.filter(
      (message) => message.kind === 'model_text' && message.id === second.requestId,
    );
    expect(text.map((message) => message.chunk)).toEqual(SECOND_TEXT);
    expect(second.result.text).toBe(SECOND_TEXT.join(''));
    const completedAt = at(
      (message) =>
        message.type === 'event' &&
        message.event.type === 'inference_completed' &&
        (message.event.payload as unknown as { requestId: string }).requestId === second.requestId,
    );
    expect(messages.lastIndexOf(text.at(-1)!)).toBeLessThan(completedAt);

    // Nothing of it was recorded: the log is the one a run nobody watched records.
    const unwatched = await runSession(model, 'unwatched', false);
    expect(unwatched.sessionId).toBe(sessionId);
    expect(recorded(events)).toEqual(recorded(unwatched.events));
    expect(JSON.stringify(events)).not.toContain('"live"');
  });
});

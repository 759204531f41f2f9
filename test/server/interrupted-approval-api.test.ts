import { describe, expect, it } from 'vitest';
import { ListApprovalsResponseSchema } from '../../src/interfaces/protocol/rest-dto.js';
import type { DriverTake } from '../../src/interfaces/interrupted-call-driver.js';
import { loadCorpusStore } from '../golden/sessions/session-corpus.js';
import { api, closeAfterEach, startTestServer } from './support/server-fixture.js';

closeAfterEach();

/**
 * A server holding the frozen `s-crash` session up to the approval its interrupted `exec` asks
 * for (#21): its driver died after `tool_call_started` (#18), the next found it interrupted (#19).
 */
async function interruptedSession(driverTakes?: (id: string) => Promise<readonly DriverTake[]>) {
  const corpus = await loadCorpusStore(['kill9-write-applied.ndjson']);
  const fixture = await startTestServer(driverTakes === undefined ? {} : { driverTakes });
  for (const event of await corpus.read('s-crash', { limit: 21 }))
    await fixture.store.append(
      {
        eventId: event.eventId,
        sessionId: event.sessionId,
        timestamp: event.timestamp,
        causationId: event.causationId,
        correlationId: event.correlationId,
        payload: event.payload,
      },
      { expectedSequence: event.sequence - 1 },
    );
  /** The pending approvals as the card reads them, at each call. */
  return async () => {
    const listed = await api(fixture.address).get('/api/sessions/s-crash/approvals');
    expect(listed.status).toBe(200);
    return ListApprovalsResponseSchema.parse(listed.body).approvals;
  };
}

const take = (driver: string, fromSequence: number, said: Partial<DriverTake>): DriverTake => ({
  driver,
  fromSequence,
  epoch: null,
  releasedAt: null,
  stoppedAt: null,
  ...said,
});

describe('the approval card of an interrupted call', () => {
  it('names the driver that started it and says it has not said it stopped', async () => {
    const approvals = await (
      await interruptedSession(async (sessionId) => {
        expect(sessionId).toBe('s-crash');
        return [take('correx worker a', 0, {}), take('correx worker b', 18, {})];
      })
    )();
    expect(approvals).toHaveLength(1);
    expect(approvals[0]!.interrupted).toEqual({
      startedSequence: 18,
      sequence: 19,
      startedBy: {
        driver: 'correx worker a',
        epoch: null,
        state: 'unconfirmed',
        at: null,
        description: expect.stringMatching(
          /has not said it stopped: the command may still be running/,
        ),
      },
    });
  });

  it('reads the records at each listing: a stop said since is shown', async () => {
    const takes: DriverTake[] = [take('correx worker a', 0, {}), take('correx worker b', 18, {})];
    const list = await interruptedSession(async () => takes);
    expect((await list())[0]!.interrupted?.startedBy?.state).toBe('unconfirmed');
    takes[0] = take('correx worker a', 0, { stoppedAt: '2026-12-03T10:05:00.000Z' });
    expect((await list())[0]!.interrupted?.startedBy).toMatchObject({
      state: 'stopped',
      at: '2026-12-03T10:05:00.000Z',
      description: expect.stringMatching(/lost the session and said .* stopped/),
    });
  });

  it('says it cannot tell where the store keeps no driver records (SQLite)', async () => {
    const [approval] = await (await interruptedSession())();
    expect(approval!.interrupted).toEqual({ startedSequence: 18, sequence: 19, startedBy: null });
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClientMessageSchema } from './client-message.js';
import {
  DecideApprovalRequestSchema,
  EventsPageQuerySchema,
  ListSessionsQuerySchema,
} from './rest-dto.js';
import { ServerMessageSchema } from './server-message.js';
import { toEventDto } from './to-event-dto.js';

const dir = import.meta.dirname;
const sources = readdirSync(dir).filter(
  (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
);

function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = readFileSync(join(dir, file), 'utf8');
  return [...text.matchAll(/^(import|export)(\s+type)?[^'"]*from\s+'([^']+)'/gm)].map((m) => ({
    specifier: m[3]!,
    typeOnly: m[2] !== undefined,
  }));
}

describe('protocol modules', () => {
  it('load in a browser: schemas import only zod and each other; mappings add only type imports', () => {
    expect(sources.length).toBeGreaterThan(5);
    for (const file of sources) {
      for (const { specifier, typeOnly } of importsOf(file)) {
        const allowed =
          specifier === 'zod' ||
          (specifier.startsWith('./') && !specifier.includes('/', 2)) ||
          (file.startsWith('to-') && typeOnly);
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('parses client messages, fills defaults and rejects unknown fields and types', () => {
    expect(ClientMessageSchema.parse({ type: 'subscribe', sessionId: 's1' })).toEqual({
      type: 'subscribe',
      sessionId: 's1',
      afterSequence: 0,
    });
    expect(
      ClientMessageSchema.safeParse({ type: 'subscribe', sessionId: 's1', x: 1 }).success,
    ).toBe(false);
    expect(ClientMessageSchema.safeParse({ type: 'launch' }).success).toBe(false);
    expect(
      ClientMessageSchema.safeParse({
        type: 'user_input',
        requestId: 'r',
        sessionId: 's',
        text: 'hi',
        mode: 'shout',
      }).success,
    ).toBe(false);
    expect(ClientMessageSchema.safeParse({ type: 'subscribe', sessionId: 'a b' }).success).toBe(
      false,
    );
  });

  it('requires a reason to deny and coerces the events query', () => {
    expect(DecideApprovalRequestSchema.safeParse({ decision: 'deny' }).success).toBe(false);
    expect(DecideApprovalRequestSchema.parse({ decision: 'approve' })).toEqual({
      decision: 'approve',
    });
    expect(EventsPageQuerySchema.parse({ after: '5' })).toEqual({ after: 5, limit: 200 });
    expect(EventsPageQuerySchema.safeParse({ after: '-1' }).success).toBe(false);
  });

  it('parses the session list filter and the list subscription messages', () => {
    expect(ListSessionsQuerySchema.parse({})).toEqual({});
    expect(ListSessionsQuerySchema.parse({ status: 'paused' })).toEqual({ status: 'paused' });
    expect(ListSessionsQuerySchema.safeParse({ status: 'asleep' }).success).toBe(false);
    expect(ClientMessageSchema.parse({ type: 'subscribe_sessions' })).toEqual({
      type: 'subscribe_sessions',
    });
    expect(ClientMessageSchema.safeParse({ type: 'subscribe_sessions', all: true }).success).toBe(
      false,
    );
    expect(ServerMessageSchema.safeParse({ type: 'session_updated', session: {} }).success).toBe(
      false,
    );
  });

  it('maps a stored event to the wire without position or hash', () => {
    const dto = toEventDto({
      eventId: 'e1',
      sessionId: 's1',
      sequence: 1,
      timestamp: '2026-01-01T00:00:00.000Z',
      version: 1,
      causationId: null,
      correlationId: null,
      payload: { type: 'steering_note_added', content: 'x' } as { type: string },
      position: 42,
      hash: 'ab',
    });
    expect(dto).not.toHaveProperty('position');
    expect(dto).not.toHaveProperty('hash');
    expect(ServerMessageSchema.parse({ type: 'event', sessionId: 's1', event: dto }).type).toBe(
      'event',
    );
  });
});

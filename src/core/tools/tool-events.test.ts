import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../event-catalog.js';
import { createEventCodec } from '../events/event-codec.js';
import { toolReceipt } from './tool-events.js';

const receipt = {
  type: 'tool_receipt' as const,
  callId: 'call-1',
  tool: 'exec',
  args: { argv: ['curl', 'https://registry.npmjs.org/'] },
  outcome: 'succeeded' as const,
  exitCode: 0,
  error: null,
  output: 'ok',
  outputBytes: 2,
  outputSha256: 'c'.repeat(64),
  truncated: false,
  files: [],
  durationMs: 12,
};

describe('tool_receipt sandbox and egress fields', () => {
  it('are optional: a receipt written before them still parses', () => {
    expect(toolReceipt.schema.parse(receipt)).toEqual(receipt);
  });

  it('carry the profile and the proxy decisions through the canonical codec', () => {
    const codec = createEventCodec(correxEventCatalog);
    const payload = {
      ...receipt,
      sandbox: {
        kind: 'bubblewrap' as const,
        network: 'proxy' as const,
        writable: ['/w'],
        readOnly: ['/w/.git/hooks'],
        hidden: ['/tmp', '/home/u'],
        granted: [],
        allowedHosts: ['registry.npmjs.org'],
        reason: null,
      },
      egress: [
        {
          host: 'registry.npmjs.org',
          port: 443,
          allowed: true,
          reason: 'on the egress allowlist',
          count: 1,
        },
        {
          host: 'evil.net',
          port: 443,
          allowed: false,
          reason: 'not on the egress allowlist',
          count: 2,
        },
      ],
    };
    const envelope = codec.normalize({
      eventId: '0193f2a4-7c1e-7000-8000-000000000001',
      sessionId: 'session-1',
      timestamp: '2026-11-30T12:00:00.000Z',
      causationId: null,
      correlationId: 'turn-1',
      payload,
    });
    const bytes = codec.encode(envelope, 3);
    expect(codec.decode(bytes, { sessionId: 'session-1', sequence: 3 }).payload).toEqual(payload);
  });

  it('refuses an unknown sandbox kind', () => {
    expect(() =>
      toolReceipt.schema.parse({
        ...receipt,
        sandbox: {
          kind: 'docker',
          network: 'none',
          writable: [],
          readOnly: [],
          hidden: [],
          granted: [],
          allowedHosts: [],
          reason: null,
        },
      }),
    ).toThrow();
  });
});

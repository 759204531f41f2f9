import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../base/sha256.js';
import { canonicalMemberJson } from '../events/canonical-json.js';
import { contextPackDigest } from '../context/render-context-pack.js';
import type { InferenceRequest } from './inference-request.js';
import { inferenceRequestDigest, inferenceRequestDigests } from './request-digest.js';

const base: InferenceRequest = {
  model: 'm',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'é ☃ "quoted" \n line' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ callId: 'c.1', name: 'read_file', argsRaw: '{"path":"a"}' }],
    },
    { role: 'tool', callId: 'c.1', toolName: 'read_file', content: 'x' },
  ],
  tools: [{ name: 'read_file', description: 'reads', inputSchema: { type: 'object', b: 1, a: 2 } }],
  limits: { maxOutputTokens: 10, timeoutMs: 1000 },
} as InferenceRequest;

describe('inferenceRequestDigests', () => {
  it.each<[string, InferenceRequest]>([
    ['a plain request', base],
    ['one with a response schema', { ...base, responseSchema: { type: 'object' } }],
    ['one whose response schema is undefined', { ...base, responseSchema: undefined }],
    ['one with no messages', { ...base, messages: [] }],
    ['one with an odd key', { ...base, '7': 'index-like' } as unknown as InferenceRequest],
    [
      'one off the fast path',
      { ...base, tools: [{ ...base.tools[0], n: NaN }] } as unknown as InferenceRequest,
    ],
  ])('gives the two plain digests for %s', (_name, request) => {
    const plain = () => ({
      packDigest: contextPackDigest(request.messages, sha256Hex),
      requestDigest: inferenceRequestDigest(request, sha256Hex),
    });
    let expected: { packDigest: string; requestDigest: string } | Error;
    try {
      expected = plain();
    } catch (error) {
      expected = error as Error;
    }
    if (expected instanceof Error)
      expect(() => inferenceRequestDigests(request, sha256Hex)).toThrow(expected.message);
    else expect(inferenceRequestDigests(request, sha256Hex)).toEqual(expected);
  });

  it("takes a caller's canonical text of the tools in place of writing it, to the same digests", () => {
    const request = { ...base, responseSchema: { type: 'object' } } as InferenceRequest;
    const toolsJson = canonicalMemberJson(request.tools)!;
    expect(inferenceRequestDigests(request, sha256Hex, toolsJson)).toEqual(
      inferenceRequestDigests(request, sha256Hex),
    );
    // What the text says is what is hashed: the caller vouches that it is the tools' text.
    expect(inferenceRequestDigests(request, sha256Hex, '[]').requestDigest).toBe(
      inferenceRequestDigest({ ...request, tools: [] }, sha256Hex),
    );
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InferenceError } from '../../core/inference/inference-failure.js';
import type { InferenceRequest } from '../../core/inference/inference-request.js';
import {
  createScriptedProvider,
  loadScriptedTurns,
  ScriptedProviderError,
} from './scripted-provider.js';

const request: InferenceRequest = {
  model: 'scripted-model',
  messages: [{ role: 'user', content: 'go' }],
  tools: [],
  limits: { maxOutputTokens: 10, timeoutMs: 10 },
};

describe('ScriptedProvider', () => {
  it('plays turns in order, derives call ids and records every request', async () => {
    const provider = createScriptedProvider({
      turns: [
        { text: 'reading', toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }] },
        { toolCalls: [{ name: 'write_file', argsRaw: '{"path":' }] },
        { fail: { category: 'rate_limit', message: 'scripted 429', retryAfterMs: 10 } },
        { text: 'done' },
      ],
    });
    const first = await provider.infer(request);
    expect(first).toEqual({
      text: 'reading',
      toolCalls: [
        {
          callId: 'scripted-1-1',
          name: 'read_file',
          argsRaw: '{"path":"a.ts"}',
          args: { path: 'a.ts' },
        },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 0, outputTokens: 0 },
      modelId: 'scripted-model',
      latencyMs: 0,
    });
    expect((await provider.infer(request)).toolCalls[0]!.argsError).toMatch(/not valid JSON/);
    const failure = await provider.infer(request).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(InferenceError);
    expect((failure as InferenceError).category).toBe('rate_limit');
    expect((await provider.infer(request)).text).toBe('done');
    expect(provider.requests).toHaveLength(4);
    await expect(provider.infer(request)).rejects.toThrow(/call 5 has none/);
  });

  it('rejects a malformed script with a named error', () => {
    expect(() => createScriptedProvider({ turns: [{ toolCalls: [{ name: 'x' }] }] })).toThrow(
      ScriptedProviderError,
    );
    expect(() =>
      createScriptedProvider({ turns: [{ fail: { category: 'oops', message: '' } } as never] }),
    ).toThrow(/invalid script/);
  });

  it('loads scripts from YAML and JSON files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'correx-script-'));
    writeFileSync(
      join(dir, 's.yaml'),
      'turns:\n  - text: hi\n  - toolCalls:\n      - name: read_file\n        args: { path: a.ts }\n',
    );
    writeFileSync(join(dir, 's.json'), '[{"text":"hi"}]');
    writeFileSync(join(dir, 'bad.json'), '{"turns": 3}');
    expect(await loadScriptedTurns(join(dir, 's.yaml'))).toHaveLength(2);
    expect(await loadScriptedTurns(join(dir, 's.json'))).toEqual([{ text: 'hi' }]);
    await expect(loadScriptedTurns(join(dir, 'bad.json'))).rejects.toThrow(
      /expected a list of turns/,
    );
  });

  it('honours an aborted signal', async () => {
    const provider = createScriptedProvider({ turns: [{ text: 'x' }] });
    const controller = new AbortController();
    controller.abort();
    const error = await provider.infer(request, controller.signal).catch((e: unknown) => e);
    expect((error as InferenceError).category).toBe('cancelled');
    expect(provider.remainingTurns()).toBe(1);
  });

  it('plays its text in pieces to a watcher, which add up to the recorded text', async () => {
    const text = 'I will run the tests now and then report what they say.';
    const watched = createScriptedProvider({ turns: [{ text, plainText: true }] });
    const pieces: string[] = [];
    const result = await watched.infer(request, undefined, (piece) => pieces.push(piece));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(text);
    const unwatched = createScriptedProvider({ turns: [{ text, plainText: true }] });
    expect(await unwatched.infer(request)).toEqual(result);
  });
});

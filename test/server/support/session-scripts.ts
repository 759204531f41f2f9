import type { ScriptedTurn } from '../../../src/infrastructure/providers/scripted-provider.js';
import { scriptedModel } from '../../kernel/kernel-harness.js';

/** Writes notes.txt (a T1 call: in prompt mode it waits for a person), then finishes. */
export const WRITE_THEN_DONE: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'hi\n' } }] },
  { text: JSON.stringify({ summary: 'done', filesChanged: ['notes.txt'] }) },
];

/** `turns` turns of `calls` read-only list_dir calls (many events, no approvals), then done. */
export function busyScript(turns: number, calls = 3): ScriptedTurn[] {
  return [
    ...Array.from({ length: turns }, () => ({
      toolCalls: Array.from({ length: calls }, () => ({ name: 'list_dir', args: { path: '.' } })),
    })),
    { text: JSON.stringify({ summary: 'looked around', filesChanged: [] }) },
  ];
}

/**
 * A scripted model that yields to the event loop before each answer, so subscribers, requests
 * and appends interleave as they would with a real model. No test depends on how long it waits.
 */
export function yieldingModel(turns: readonly ScriptedTurn[]): ReturnType<typeof scriptedModel> {
  const inner = scriptedModel(turns);
  return {
    ...inner,
    async infer(request, signal) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return inner.infer(request, signal);
    },
  };
}

import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';

/** The model turns of the crash test: a write, a non-idempotent exec, another write, done. */
export const CRASH_SCRIPT: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'one\n' } }] },
  { toolCalls: [{ name: 'exec', args: { argv: ['node', 'append.js'] } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'two\n' } }] },
  {
    text: JSON.stringify({
      summary: 'wrote a and b, logged once',
      filesChanged: ['a.txt', 'b.txt', 'log.txt'],
    }),
  },
];

/** Appends one line per run: the effect that must never be silently repeated or lost. */
export const APPEND_JS = "require('fs').appendFileSync('log.txt', 'x\\n');\n";

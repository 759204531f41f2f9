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

/** The model turns of the held-work test: one turn that reads a.txt and writes b.txt, then done. */
export const PAIR_SCRIPT: readonly ScriptedTurn[] = [
  {
    toolCalls: [
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'write_file', args: { path: 'b.txt', content: 'two\n' } },
    ],
  },
  { text: JSON.stringify({ summary: 'read a, wrote b', filesChanged: ['b.txt'] }) },
];

/** One model turn of two file writes, then the stage's answer. */
export const WRITES_SCRIPT: readonly ScriptedTurn[] = [
  {
    toolCalls: [
      { name: 'write_file', args: { path: 'c.txt', content: 'first\n' } },
      { name: 'write_file', args: { path: 'd.txt', content: 'second\n' } },
    ],
  },
  { text: JSON.stringify({ summary: 'wrote c and d', filesChanged: ['c.txt', 'd.txt'] }) },
];

/** Appends one line per run: the effect that must never be silently repeated or lost. */
export const APPEND_JS = "require('fs').appendFileSync('log.txt', 'x\\n');\n";

/**
 * A program whose effect lands outside its redirect target: it appends a line (with its pid, so
 * the test can end it) to `other.log`, then waits before writing anything to stdout. Killed in
 * that wait, `node effect.mjs >> marker.log` has left `marker.log` untouched and yet ran.
 */
export const EFFECT_MJS =
  "import { appendFileSync } from 'node:fs';\n" +
  "appendFileSync('other.log', `ran ${process.pid}\\n`);\n" +
  "setTimeout(() => console.log('done'), 60_000);\n";

/** The model turns of the effect test: one exec whose program has an effect, then done. */
export const EFFECT_SCRIPT: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'exec', args: { command: 'node effect.mjs >> marker.log' } }] },
  { text: JSON.stringify({ summary: 'ran the effect once', filesChanged: ['other.log'] }) },
];

/** A read, then a write over the file read (which holds `OVERWRITTEN`), then the answer. */
export const OVERWRITE_SCRIPT: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'the new notes\n' } }] },
  { text: JSON.stringify({ summary: 'rewrote the notes', filesChanged: ['notes.txt'] }) },
];

/** What notes.txt holds before OVERWRITE_SCRIPT's write. */
export const OVERWRITTEN = 'the old notes, which a reader must never see vanish\n';

/**
 * A read of link.txt (a symlink to real.txt), then one turn that writes through the link and
 * writes d.txt, then the answer, which claims the real file.
 */
export const LINK_WRITES_SCRIPT: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'read_file', args: { path: 'link.txt' } }] },
  {
    toolCalls: [
      { name: 'write_file', args: { path: 'link.txt', content: 'through the link\n' } },
      { name: 'write_file', args: { path: 'd.txt', content: 'second\n' } },
    ],
  },
  { text: JSON.stringify({ summary: 'wrote real and d', filesChanged: ['real.txt', 'd.txt'] }) },
];

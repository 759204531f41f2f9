/**
 * Adds recorded sessions to the frozen corpus: `tsx add-to-corpus.ts <name> <recorded.ndjson>
 * "<scenario>"`. The recording comes from a suite run with CORREX_GOLDEN_RECORD set (see
 * corpus-recorder.ts). A name already in the corpus is refused: corpus files are never rewritten.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CORPUS_DIR, readCorpusEvents, type CorpusManifest } from './session-corpus.js';

const [name, source, scenario] = process.argv.slice(2);
if (name === undefined || source === undefined || scenario === undefined)
  throw new Error('usage: add-to-corpus <name> <recorded.ndjson> "<scenario>"');
const file = `${name}.ndjson`;
const target = join(CORPUS_DIR, file);
const manifestPath = join(CORPUS_DIR, 'manifest.json');
const manifest: CorpusManifest = existsSync(manifestPath)
  ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as CorpusManifest)
  : { sessions: [] };
if (existsSync(target) || manifest.sessions.some((entry) => entry.file === file))
  throw new Error(`${file} is already in the corpus; corpus files are never rewritten`);
copyFileSync(source, target);
const events = readCorpusEvents(file);
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const entry = {
  file,
  sha256: createHash('sha256').update(readFileSync(target)).digest('hex'),
  sessionId: events[0]!.sessionId,
  events: events.length,
  recordedBy: `correx ${version} (${commit})`,
  scenario,
};
writeFileSync(
  manifestPath,
  `${JSON.stringify({ sessions: [...manifest.sessions, entry] }, null, 2)}\n`,
);
console.log(`added ${file}: ${events.length} events of ${entry.sessionId}`);

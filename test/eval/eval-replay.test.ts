import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnvironment, correx, type CliResult } from '../cli/cli-process.js';
import { CORPUS_DIR, readCorpusManifest } from '../golden/sessions/session-corpus.js';
import { COMPILED_CLI_ROOT } from '../support/compile-cli.js';
import { tempDir } from '../support/temp-dir.js';

const run = promisify(execFile);

/**
 * A build of correx with one deliberate, unflagged behaviour change: the reason the approval
 * engine records for an automatic T0 grant reads differently. It sits beside the tests' compiled
 * CLI (same depth, so it finds package.json and node_modules the same way) and is removed after.
 */
const DIVERGENT_ROOT = `${COMPILED_CLI_ROOT}-divergent-${process.pid}`;

function buildDivergentCli(): string {
  cpSync(COMPILED_CLI_ROOT, DIVERGENT_ROOT, { recursive: true });
  const file = join(DIVERGENT_ROOT, 'core', 'approvals', 'decide-approval.js');
  const source = readFileSync(file, 'utf8');
  const changed = source.replace(
    'T0: read-only inside the workspace',
    'T0: read-only within the workspace',
  );
  expect(changed, 'the behaviour to change is no longer in decide-approval.js').not.toBe(source);
  writeFileSync(file, changed);
  return join(DIVERGENT_ROOT, 'main', 'cli.js');
}

async function runBuild(cli: string, home: string, args: readonly string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: cliEnvironment(home),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

type GateJson = {
  ok: boolean;
  events: number;
  sessions: {
    sessionId: string;
    source: string;
    ok: boolean;
    divergence?: {
      sequence: number;
      fields: string[];
      derived: { type: string; sha256: string };
      recorded: { type: string; sha256: string };
      derivedText: string;
    };
  }[];
  problems: { file: string; reason: string }[];
};

// Each replays the whole corpus in a child process: minutes on a loaded machine, not seconds.
describe('correx eval replay', { timeout: 240_000 }, () => {
  const root = tempDir('correx-eval-replay-');
  const home = join(root, 'home');
  const manifest = readCorpusManifest();
  afterAll(() => rmSync(DIVERGENT_ROOT, { recursive: true, force: true }));

  it('re-derives every session of the frozen corpus byte for byte, as a CI gate (exit 0)', async () => {
    const result = await correx(home, ['eval', 'replay', '--corpus', CORPUS_DIR, '--json'], {});
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as GateJson;
    expect(report.ok).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.sessions.map((session) => session.source).sort()).toEqual(
      manifest.sessions.map((entry) => entry.file).sort(),
    );
    expect(report.events).toBe(manifest.sessions.reduce((sum, entry) => sum + entry.events, 0));
    const text = await correx(home, ['eval', 'replay', '--corpus', CORPUS_DIR], {});
    expect(text.stdout).toMatch(
      new RegExp(
        `eval replay: ${manifest.sessions.length} sessions, ${report.events} events, .* all identical`,
      ),
    );
  });

  it('fails under a build with an unflagged behaviour change, naming the session, sequence and field', async () => {
    const cli = buildDivergentCli();
    const result = await runBuild(cli, home, ['eval', 'replay', '--corpus', CORPUS_DIR, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as GateJson;
    expect(report.ok).toBe(false);
    const happy = report.sessions.find((session) => session.source === 'happy-path.ndjson')!;
    expect(happy).toMatchObject({
      sessionId: 's-happy',
      ok: false,
      divergence: {
        sequence: 10,
        fields: ['payload.reason'],
        derived: { type: 'approval_granted' },
        recorded: { type: 'approval_granted' },
      },
    });
    expect(happy.divergence!.derivedText).toContain('T0: read-only within the workspace');
    expect(happy.divergence!.derived.sha256).not.toBe(happy.divergence!.recorded.sha256);
    // Sessions that never auto-granted a T0 call still replay under that build.
    expect(report.sessions.some((session) => session.ok)).toBe(true);

    const text = await runBuild(cli, home, ['eval', 'replay', '--corpus', CORPUS_DIR]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /✗ happy-path\.ndjson {2}s-happy {2}DIVERGES at #10 approval_granted: the recorded event differs/,
    );
    expect(text.stdout).toContain('fields    payload.reason');
  });

  it('names a corpus file rewritten since its manifest, and a recorded hash its bytes no longer give', async () => {
    const corpus = join(root, 'corpus');
    mkdirSync(corpus, { recursive: true });
    const entry = manifest.sessions.find((candidate) => candidate.file === 'happy-path.ndjson')!;
    copyFileSync(join(CORPUS_DIR, entry.file), join(corpus, entry.file));
    writeFileSync(join(corpus, 'manifest.json'), JSON.stringify({ sessions: [entry] }));
    expect((await correx(home, ['eval', 'replay', '--corpus', corpus], {})).code).toBe(0);

    // The recorded grant's reason rewritten in place: its recorded hash no longer matches.
    const lines = readFileSync(join(CORPUS_DIR, entry.file), 'utf8').split('\n');
    lines[9] = lines[9]!.replace('inside the workspace', 'within the workspace');
    writeFileSync(join(corpus, entry.file), lines.join('\n'));
    const result = await correx(home, ['eval', 'replay', '--corpus', corpus], {});
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '✗ happy-path.ndjson: rewritten since manifest.json recorded its digest',
    );
    expect(result.stdout).toMatch(
      /✗ happy-path\.ndjson {2}s-happy #10: event 10 re-encodes to another hash/,
    );
  });
});

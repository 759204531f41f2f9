import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelopeBytes } from '../../src/core/events/envelope-bytes.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx, startCorrex, type CliResult } from './cli-process.js';

/**
 * Two stages: `implement` writes a file and must see its check pass; `polish` may write another
 * file after that check (no check of its own), so a session can change files after its last check.
 */
const CHECKED_WORKFLOW = `id: checked
initialStage: implement
stages:
  - id: implement
    role: implementer
    instructions: Change the workspace as the task says.
    allowedTools: [read_file, write_file]
    capabilities: [tool_calling]
    definitionOfDone:
      checks:
        - { name: has-hello, command: 'test -f hello.txt' }
    artifact:
      kind: change
      schema:
        type: object
        properties:
          summary: { type: string }
          filesChanged: { type: array, items: { type: string } }
        required: [summary, filesChanged]
        additionalProperties: false
    transitions:
      - when: { on: success }
        to: polish
      - when: { on: failure }
        end: failed
  - id: polish
    role: implementer
    instructions: Polish.
    allowedTools: [read_file, write_file]
    capabilities: [tool_calling]
    artifact:
      kind: change
      schema:
        type: object
        properties:
          summary: { type: string }
          filesChanged: { type: array, items: { type: string } }
        required: [summary, filesChanged]
        additionalProperties: false
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();

describe('signed provenance and the merge gate, through the CLI', () => {
  const world = cliWorld('correx-provenance-test-', CHECKED_WORKFLOW);
  const { root, home, workflowFile } = world;
  const keys = join(root, 'keys');
  let repository = '';

  const repo = () => {
    if (repository !== '') return repository;
    repository = world.workspace('repo');
    git(repository, 'init', '--quiet', '--initial-branch=main');
    writeFileSync(join(repository, 'README.md'), 'a repository\n');
    git(repository, 'add', 'README.md');
    git(repository, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'init');
    return repository;
  };

  /** Runs a worktree session; in prompt mode a person approves each call from another process. */
  async function runSession(
    mode: 'prompt' | 'yolo',
    polish: string | null,
  ): Promise<{ id: string; worktree: string; result: CliResult }> {
    world.model.reply(
      ...writeThenFinish('hello.txt', 'hello\n'),
      ...(polish === null
        ? writeThenFinish('hello.txt', 'hello\n')
        : writeThenFinish(polish, 'more\n')),
    );
    const args = ['run', 'write hello', '--workspace', repo(), '--workflow', workflowFile];
    const running = startCorrex(
      home,
      [
        ...args,
        '--worktree',
        '--mode',
        mode,
        ...(mode === 'prompt' ? ['--json', '--wait-for-approval'] : []),
      ],
      world.env,
    );
    const approved = new Set<string>();
    let done = false;
    const exited = running.exited.then((result) => ((done = true), result));
    while (!done && mode === 'prompt') {
      for (const match of running.output().matchAll(/correx approve (\S+) ([^"\s]+)/g)) {
        if (approved.has(match[2]!)) continue;
        approved.add(match[2]!);
        const approve = await correx(
          home,
          ['approve', match[1]!, match[2]!, '--by', 'alice'],
          world.env,
        );
        expect(approve.code, approve.stderr).toBe(0);
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
    const result = await exited;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const id =
      mode === 'prompt'
        ? /"sessionId":"([^"]+)"/.exec(result.stdout)![1]!
        : /^session (\S+)$/m.exec(result.stdout)![1]!;
    const worktree = git(repo(), 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree '))
      .map((line) => line.slice('worktree '.length))
      .find((path) => path.endsWith(id))!;
    return { id, worktree, result };
  }

  /** A copy of the store, so one test can tamper with its log and leave the others theirs. */
  function storeCopy(name: string): string {
    const copy = join(root, `${name}.db`);
    const db = new Database(join(home, 'correx.db'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    copyFileSync(join(home, 'correx.db'), copy);
    return copy;
  }

  function tamperLog(store: string, sessionId: string, from: string, to: string) {
    const db = new Database(store);
    try {
      const triggers = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        .all() as { name: string }[];
      for (const { name } of triggers) db.exec(`DROP TRIGGER "${name}"`);
      const changed = db
        .prepare(
          'UPDATE events SET bytes = replace(bytes, ?, ?) WHERE session_id = ? AND instr(bytes, ?) > 0',
        )
        .run(from, to, sessionId, from);
      expect(changed.changes).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  }

  type StoredRow = {
    position: number;
    sequence: number;
    event_id: string;
    bytes: string;
    causation_id: string | null;
    correlation_id: string | null;
    timestamp: string;
    version: number | null;
  };

  /** Rewrites history the way a careful forger would: the byte changed and the chain recomputed. */
  function rewriteAndRechain(store: string, sessionId: string, from: string, to: string) {
    tamperLog(store, sessionId, from, to);
    const db = new Database(store);
    try {
      const rows = db
        .prepare(
          `SELECT position, sequence, event_id, bytes, causation_id, correlation_id, timestamp, version
           FROM events WHERE session_id = ? ORDER BY sequence`,
        )
        .all(sessionId) as StoredRow[];
      let previous = '0'.repeat(64);
      for (const row of rows) {
        // The hashed bytes: the whole event, which a row keeps as its envelope columns around
        // the payload text (schema 6).
        const canonical =
          row.version === null
            ? row.bytes
            : envelopeBytes(
                {
                  causationId: row.causation_id,
                  correlationId: row.correlation_id,
                  eventId: row.event_id,
                  sessionId,
                  timestamp: row.timestamp,
                  version: row.version,
                },
                row.sequence,
                row.bytes,
              );
        const hash = createHash('sha256')
          .update(previous + canonical)
          .digest('hex');
        db.prepare('UPDATE events SET hash = ? WHERE position = ?').run(
          Buffer.from(hash, 'hex'),
          row.position,
        );
        previous = hash;
      }
    } finally {
      db.close();
    }
  }

  const envelopeOf = (file: string) =>
    JSON.parse(readFileSync(file, 'utf8')) as {
      payload: string;
      payloadType: string;
      signatures: { keyid: string; sig: string }[];
    };

  it('attests a worktree session; verification passes, and one byte changed in the statement, the log or the tree fails it, naming what differs', async () => {
    const generated = await correx(home, ['keys', 'generate', '--out', keys]);
    expect(generated.code, generated.stderr).toBe(0);
    expect(statSync(join(keys, 'correx-signing.key')).mode & 0o777).toBe(0o600);
    const again = await correx(home, ['keys', 'generate', '--out', keys]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('never overwrites a key');

    const { id, worktree } = await runSession('prompt', null);
    const key = ['--key', join(keys, 'correx-signing.key')];
    const pub = ['--public-key', join(keys, 'correx-signing.pub')];
    const statementFile = join(root, 'statement.json');
    const attested = await correx(home, ['attest', id, ...key, '--out', statementFile]);
    expect(attested.code, attested.stderr).toBe(0);
    expect(attested.stdout).toMatch(new RegExp(`subject {3}correx/${id} gitCommit:`));

    // The statement: in-toto v1, subject the branch head, the predicate's facts from the log.
    const envelope = envelopeOf(statementFile);
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.subject[0]).toEqual({
      name: `correx/${id}`,
      digest: {
        gitCommit: git(worktree, 'rev-parse', 'HEAD'),
        gitTree: git(worktree, 'rev-parse', 'HEAD^{tree}'),
      },
    });
    const predicate = statement.predicate;
    expect(predicate.git.baseCommit).toBe(git(repo(), 'rev-parse', 'main'));
    expect(predicate.session).toMatchObject({ id, task: 'write hello', status: 'completed' });
    expect(predicate.approvals.length).toBeGreaterThan(0);
    expect(
      predicate.approvals.every(
        (approval: { how: string; by: string }) =>
          approval.how === 'person' && approval.by === 'alice',
      ),
    ).toBe(true);
    expect(predicate.checks[0]).toMatchObject({ name: 'has-hello', passed: true });
    expect(predicate.configuration.workflow.id).toBe('checked');
    expect(predicate.correx.kernelVersion).toBeGreaterThanOrEqual(2);
    expect(predicate.changes.files).toEqual([
      { path: 'hello.txt', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);

    const verified = await correx(home, ['attest', 'verify', statementFile, ...pub]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    for (const what of ['signature', 'log', 'predicate', 'tree'])
      expect(verified.stdout).toMatch(new RegExp(`^ok +${what}:`, 'm'));

    // Without the log (another store) it checks the signature and says what it could not check.
    const elsewhere = await correx(home, [
      'attest',
      'verify',
      statementFile,
      ...pub,
      '--store',
      join(root, 'nothing.db'),
    ]);
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stdout).toMatch(/^ok +signature:/m);
    expect(elsewhere.stdout).toMatch(
      /^unchecked log: the log's head: no store to read the log from/m,
    );
    expect(elsewhere.stdout).toContain('verified (with unchecked parts, above)');

    // One byte of the statement: the signature no longer holds.
    const forged = {
      ...statement,
      predicate: { ...predicate, session: { ...predicate.session, task: 'write hellp' } },
    };
    const forgedFile = join(root, 'forged.json');
    writeFileSync(
      forgedFile,
      JSON.stringify({
        ...envelope,
        payload: Buffer.from(JSON.stringify(forged)).toString('base64'),
      }),
    );
    const badSignature = await correx(home, ['attest', 'verify', forgedFile, ...pub]);
    expect(badSignature.code).toBe(1);
    expect(badSignature.stdout).toMatch(
      /^FAILED +signature: no signature over this payload verifies/m,
    );
    // Signed again by the key's holder, the forged fact still disagrees with the log, by name.
    const keyHolder = join(root, 'keyholder.json');
    const { createPrivateKey, sign } = await import('node:crypto');
    const body = Buffer.from(JSON.stringify(forged));
    const type = 'application/vnd.in-toto+json';
    const pae = Buffer.concat([Buffer.from(`DSSEv1 ${type.length} ${type} ${body.length} `), body]);
    const sig = sign(null, pae, createPrivateKey(readFileSync(join(keys, 'correx-signing.key'))));
    writeFileSync(
      keyHolder,
      JSON.stringify({
        payload: body.toString('base64'),
        payloadType: type,
        signatures: [{ sig: sig.toString('base64') }],
      }),
    );
    const badFact = await correx(home, ['attest', 'verify', keyHolder, ...pub]);
    expect(badFact.code).toBe(1);
    expect(badFact.stdout).toMatch(/^ok +signature:/m);
    expect(badFact.stdout).toMatch(
      /^FAILED +predicate: predicate\.session\.task: the statement says "write hellp", the log says "write hello"/m,
    );

    // One byte of the log: its chain breaks, at the event changed.
    const tampered = storeCopy('tampered-log');
    tamperLog(tampered, id, '"task":"write hello"', '"task":"write hellp"');
    const badLog = await correx(home, [
      'attest',
      'verify',
      statementFile,
      ...pub,
      '--store',
      tampered,
    ]);
    expect(badLog.code).toBe(1);
    expect(badLog.stdout).toMatch(
      /^FAILED +log: the log's hash chain breaks at sequence \d+: .*hash/m,
    );

    // The same byte with the chain recomputed: the chain holds, but not at the stated head, and
    // the fact that changed is named.
    const rechained = storeCopy('rechained-log');
    rewriteAndRechain(rechained, id, '"id":"alice"', '"id":"malice"');
    expect((await correx(home, ['verify', id, '--store', rechained])).code).toBe(0);
    const forgedLog = await correx(home, [
      'attest',
      'verify',
      statementFile,
      ...pub,
      '--store',
      rechained,
    ]);
    expect(forgedLog.code).toBe(1);
    expect(forgedLog.stdout).toMatch(
      /^FAILED +log: the log's head differs: the statement says \w+ after \d+ events, the log has \w+ after \d+/m,
    );
    expect(forgedLog.stdout).toMatch(
      /^FAILED +predicate: predicate\.approvals\[0\]\.by: the statement says "alice", the log says "malice"/m,
    );

    // One byte of the tree: named as an uncommitted change, then as a commit that differs.
    writeFileSync(join(worktree, 'hello.txt'), 'hellp\n');
    const dirty = await correx(home, ['attest', 'verify', statementFile, ...pub]);
    expect(dirty.code).toBe(1);
    expect(dirty.stdout).toMatch(
      /^FAILED +tree: hello\.txt changed in the worktree and not committed/m,
    );
    git(worktree, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-am', 'edit');
    const moved = await correx(home, ['attest', 'verify', statementFile, ...pub]);
    expect(moved.code).toBe(1);
    expect(moved.stdout).toMatch(
      /^FAILED +tree: correx\/\S+ is at \w+ .*files that differ: hello\.txt/m,
    );
    git(worktree, 'reset', '--quiet', '--hard', 'HEAD~1');
    expect((await correx(home, ['attest', 'verify', statementFile, ...pub])).code).toBe(0);
  }, 240_000);

  it('the gate passes a person-approved session whose checks ran on the final tree, and fails a later change, a yolo approval and an edited log', async () => {
    const approvedRun = await runSession('prompt', null);
    const gate = (id: string, ...extra: string[]) =>
      correx(home, ['gate', id, '--require-approval', 'T1', '--require-checks', ...extra]);
    const passed = await gate(approvedRun.id);
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/^PASS session /m);
    const asJson = JSON.parse((await gate(approvedRun.id, '--json')).stdout) as {
      pass: boolean;
      reasons: string[];
    };
    expect(asJson).toMatchObject({ pass: true, reasons: [] });

    // A file changed after the last check: in the session (its second stage), and by hand after it.
    const laterChange = await runSession('prompt', 'notes.txt');
    const late = await gate(laterChange.id);
    expect(late.code).toBe(1);
    expect(late.stdout).toMatch(
      /^FAIL check has-hello last passed at event #\d+; files changed after it \(last change at event #\d+\)/m,
    );
    writeFileSync(join(approvedRun.worktree, 'hello.txt'), 'edited by hand\n');
    git(
      approvedRun.worktree,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '--quiet',
      '-am',
      'by hand',
    );
    const edited = await gate(approvedRun.id);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(
      /^FAIL the tree under review is not what the log recorded: hello\.txt: the log's last change left sha256 \w+, the tree has sha256 \w+/m,
    );
    git(approvedRun.worktree, 'reset', '--quiet', '--hard', 'HEAD~1');
    expect((await gate(approvedRun.id)).code).toBe(0);

    // Approved only by yolo mode.
    const yolo = await runSession('yolo', null);
    const byMode = await gate(yolo.id);
    expect(byMode.code).toBe(1);
    expect(byMode.stdout).toMatch(
      /^FAIL call \S+ \(write_file, T\d\) was approved by operator mode yolo, not by a person or a grant/m,
    );
    expect(byMode.stdout).not.toMatch(/FAIL check/);

    // The log edited after the fact.
    const tampered = storeCopy('tampered-gate');
    tamperLog(tampered, approvedRun.id, '"by":{"id":"alice"', '"by":{"id":"alicf"');
    const badLog = await gate(approvedRun.id, '--store', tampered);
    expect(badLog.code).toBe(1);
    expect(badLog.stdout).toMatch(
      /^FAIL the log does not verify: hash chain broken at sequence \d+/m,
    );
    expect(existsSync(tampered)).toBe(true);

    // The merge commit correx makes can name the statement of what it merges, by digest.
    const statementFile = join(root, 'approved.json');
    const attested = await correx(home, [
      'attest',
      approvedRun.id,
      '--key',
      join(keys, 'correx-signing.key'),
      '--out',
      statementFile,
    ]);
    expect(attested.code, attested.stderr).toBe(0);
    const digest = /^statement sha256:([0-9a-f]{64})$/m.exec(attested.stdout)![1]!;
    const wrongSession = await correx(home, ['merge', yolo.id, '--attestation', statementFile]);
    expect(wrongSession.code).toBe(2);
    expect(wrongSession.stderr).toContain(`is not about session ${yolo.id}`);
    const merged = await correx(home, ['merge', approvedRun.id, '--attestation', statementFile]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(git(repo(), 'log', '-1', '--format=%B', 'main')).toContain(
      `Correx-Attestation: sha256:${digest}`,
    );
  }, 300_000);

  it('outside a worktree, the subject is the changed files by digest, checked on disk by verify and the gate', async () => {
    const workspace = world.workspace('plain');
    const plainKeys = join(root, 'plain-keys');
    expect((await correx(home, ['keys', 'generate', '--out', plainKeys])).code).toBe(0);
    world.model.reply(
      ...writeThenFinish('hello.txt', 'hello\n'),
      ...writeThenFinish('hello.txt', 'hello\n'),
    );
    const ran = await correx(
      home,
      [
        'run',
        'write hello',
        '--workspace',
        workspace,
        '--workflow',
        workflowFile,
        '--mode',
        'auto',
      ],
      world.env,
    );
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const id = /^session (\S+)$/m.exec(ran.stdout)![1]!;
    const file = join(root, 'plain.json');
    const attested = await correx(home, [
      'attest',
      id,
      '--key',
      join(plainKeys, 'correx-signing.key'),
      '--out',
      file,
    ]);
    expect(attested.code, attested.stderr).toBe(0);
    const statement = JSON.parse(Buffer.from(envelopeOf(file).payload, 'base64').toString('utf8'));
    expect(statement.subject[0]).toEqual({
      name: 'hello.txt',
      digest: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(statement.predicate.git).toBeNull();
    const pub = ['--public-key', join(plainKeys, 'correx-signing.pub')];
    expect((await correx(home, ['attest', 'verify', file, ...pub])).code).toBe(0);
    expect((await correx(home, ['gate', id, '--require-checks'])).code).toBe(0);

    writeFileSync(join(workspace, 'hello.txt'), 'hellp\n');
    const verified = await correx(home, ['attest', 'verify', file, ...pub]);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(
      /^FAILED +tree: hello\.txt differs from the statement's digest/m,
    );
    const gated = await correx(home, ['gate', id, '--require-checks']);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(
      /^FAIL the tree under review is not what the log recorded: hello\.txt: /m,
    );
  }, 120_000);
});

import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SessionDiffResponseSchema,
  UndoRefusedResponseSchema,
  UndoResponseSchema,
} from '../../src/interfaces/protocol/session-changes-dto.js';
import { sessionDiffLines } from '../../src/interfaces/session-diff.js';
import { recordExecSession } from './support/exec-change-session.js';
import { api, closeAfterEach, rawRequest, startTestServer } from './support/server-fixture.js';

closeAfterEach();

const ORIGINAL = 'one\ntwo\nthree\n';

/**
 * A server over a store holding a session whose exec calls changed files for real (pre-images
 * kept where the server reads them), in two stages.
 */
async function serverWithChanges(options: { running?: boolean } = {}) {
  const fixture = await startTestServer({
    files: { 'src/a.txt': ORIGINAL, 'src/keep.txt': 'untouched\n' },
    deps: { user: 'alice' },
  });
  const preimageDirectory = join(dirname(fixture.workspace), 'correx', 'preimages');
  chmodSync(join(fixture.workspace, 'src/a.txt'), 0o640);
  await recordExecSession(fixture.store, {
    sessionId: 's1',
    workspace: fixture.workspace,
    preimageDirectory,
    calls: [
      { stageId: 'implement', command: "sed -i 's/two/TWO/' src/a.txt && chmod 600 src/a.txt" },
      {
        stageId: 'verify',
        command: 'mkdir -p src/gen && echo made > src/gen/b.txt && rm src/keep.txt',
      },
    ],
    before: options.running
      ? [{ type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'implement' }]
      : [],
  });
  await fixture.close();
  // The same store and workspace behind a server that reads the pre-images.
  const server = await startTestServer({
    reuse: { store: fixture.store, workspace: fixture.workspace, storePath: fixture.storePath },
    deps: { user: 'alice', preimageDirectory },
  });
  const file = (path: string) => join(fixture.workspace, path);
  return { ...server, file, client: api(server.address) };
}

describe('GET /api/sessions/:id/diff and POST /api/sessions/:id/undo', () => {
  it("shows each call's real diff with its command, as correx diff prints it, and filters by stage", async () => {
    const { client, file } = await serverWithChanges();
    const reply = await client.get('/api/sessions/s1/diff');
    expect(reply.status).toBe(200);
    const { changes } = SessionDiffResponseSchema.parse(reply.body);
    expect(changes.map((change) => [change.stageId, change.tool, change.command])).toEqual([
      ['implement', 'exec', "sed -i 's/two/TWO/' src/a.txt && chmod 600 src/a.txt"],
      ['verify', 'exec', 'mkdir -p src/gen && echo made > src/gen/b.txt && rm src/keep.txt'],
    ]);
    expect(changes[0]!.files).toEqual([
      expect.objectContaining({
        path: file('src/a.txt'),
        change: 'modified',
        mode: { before: '0640', after: '0600' },
        hunks: ['@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three'],
      }),
    ]);
    expect(
      changes[1]!.files.map((entry) => [entry.path, entry.change, entry.hunks?.join('|')]),
    ).toEqual(
      expect.arrayContaining([
        [file('src/gen/b.txt'), 'created', '@@ -0,0 +1,1 @@|+made'],
        [file('src/keep.txt'), 'deleted', '@@ -1,1 +0,0 @@|-untouched'],
      ]),
    );
    // The CLI prints the same structure, so the two cannot tell different stories.
    expect(sessionDiffLines(changes)[0]).toBe(
      `# #4 implement.1 [implement] exec succeeded: $ sed -i 's/two/TWO/' src/a.txt && chmod 600 src/a.txt`,
    );
    const verify = SessionDiffResponseSchema.parse(
      (await client.get('/api/sessions/s1/diff?stage=verify')).body,
    );
    expect(verify.changes.map((change) => change.callId)).toEqual(['verify.2']);
    expect((await client.get('/api/sessions/nobody/diff')).status).toBe(404);
  });

  it('undoes every change to the exact bytes and modes, records it as the server user, then has nothing left', async () => {
    const { client, file, store } = await serverWithChanges();
    const last = await store.lastSequence('s1');
    const reply = await client.post('/api/sessions/s1/undo', {});
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const undone = UndoResponseSchema.parse(reply.body);
    expect(undone.outcome).toBe('restored');
    expect(undone.toSequence).toBe(0);
    expect(undone.files.map((entry) => entry.path).sort()).toEqual(
      [file('src/a.txt'), file('src/gen/b.txt'), file('src/keep.txt')].sort(),
    );
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe(ORIGINAL);
    expect(statSync(file('src/a.txt')).mode & 0o777).toBe(0o640);
    expect(readFileSync(file('src/keep.txt'), 'utf8')).toBe('untouched\n');
    expect(existsSync(file('src/gen/b.txt'))).toBe(false);
    const [recorded] = await store.read('s1', { afterSequence: last });
    expect(recorded!.payload).toMatchObject({
      type: 'workspace_restored',
      by: 'alice',
      toSequence: 0,
      stageId: null,
    });
    expect(undone.event?.sequence).toBe(recorded!.sequence);
    const again = UndoResponseSchema.parse((await client.post('/api/sessions/s1/undo')).body);
    expect(again).toEqual({ outcome: 'nothing', toSequence: 0, files: [], event: null });
    const { changes } = SessionDiffResponseSchema.parse(
      (await client.get('/api/sessions/s1/diff')).body,
    );
    expect(changes.at(-1)).toMatchObject({ tool: 'undo', callId: 'undo by alice' });
  });

  it('undoes only what came after `to`, or since a stage started', async () => {
    const { client, file } = await serverWithChanges();
    const byStage = await client.post('/api/sessions/s1/undo', { stage: 'verify' });
    expect(byStage.status, JSON.stringify(byStage.body)).toBe(200);
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(readFileSync(file('src/keep.txt'), 'utf8')).toBe('untouched\n');
    expect(existsSync(file('src/gen/b.txt'))).toBe(false);
    const toStart = await client.post('/api/sessions/s1/undo', { to: 1 });
    expect(toStart.status).toBe(200);
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe(ORIGINAL);
    const both = await client.post('/api/sessions/s1/undo', { to: 1, stage: 'verify' });
    expect(both.status).toBe(400);
    expect((await client.post('/api/sessions/s1/undo', { stage: 'review' })).status).toBe(400);
  });

  it('refuses with 409 and the files changed outside correx, changing and recording nothing', async () => {
    const { client, file, store } = await serverWithChanges();
    writeFileSync(file('src/gen/b.txt'), 'edited by hand\n');
    const last = await store.lastSequence('s1');
    const reply = await client.post('/api/sessions/s1/undo', {});
    expect(reply.status).toBe(409);
    const refused = UndoRefusedResponseSchema.parse(reply.body);
    expect(refused.changedOutside).toEqual([file('src/gen/b.txt')]);
    expect(refused.missingPreimages).toEqual([]);
    expect(refused.error.message).toContain('changed outside correx since');
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(existsSync(file('src/keep.txt'))).toBe(false);
    expect(await store.lastSequence('s1')).toBe(last);
  });

  it('refuses a running session, another decider and a caller without the token', async () => {
    const { client, address, file } = await serverWithChanges({ running: true });
    const running = await client.post('/api/sessions/s1/undo', {});
    expect(running.status).toBe(409);
    expect(JSON.stringify(running.body)).toContain('is running');
    expect((await client.post('/api/sessions/s1/undo', { by: 'auto' })).status).toBe(403);
    const anonymous = await rawRequest(address, {
      method: 'POST',
      path: '/api/sessions/s1/undo',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });
});

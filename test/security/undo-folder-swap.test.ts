import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { preimageDirectory } from '../../src/infrastructure/sandbox/preimage-store.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { UndoRefusedResponseSchema } from '../../src/interfaces/protocol/session-changes-dto.js';
import { correx } from '../cli/cli-process.js';
import { recordExecSession } from '../server/support/exec-change-session.js';
import { api, closeAfterEach, startTestServer } from '../server/support/server-fixture.js';
import { tempDir } from '../support/temp-dir.js';

closeAfterEach();

/** The session: changes one file, creates one and deletes one, all inside `src/`. */
const CALLS = [
  {
    stageId: 'implement',
    command: "sed -i 's/two/TWO/' src/a.txt && echo made > src/b.txt && rm src/c.txt",
  },
];

/**
 * Moves `src/` out of the workspace and puts a symlink to it in its place: every file still
 * holds what the session left, so only the walk can tell that the folder now lies elsewhere.
 */
function swapFolderForLink(workspace: string, outside: string): string {
  const moved = join(outside, 'src');
  renameSync(join(workspace, 'src'), moved);
  symlinkSync(moved, join(workspace, 'src'));
  return moved;
}

function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
  );
}

function seed(workspace: string) {
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src/a.txt'), 'one\ntwo\n');
  writeFileSync(join(workspace, 'src/c.txt'), 'to be deleted\n');
}

describe('undo after a changed folder was swapped for a symlink to an outside folder', () => {
  it('correx undo (the real CLI) refuses, naming each path, and changes nothing outside', async () => {
    const root = realpathSync(tempDir('correx-undo-swap-'));
    const home = join(root, 'home');
    const workspace = join(root, 'ws');
    const outside = join(root, 'outside');
    mkdirSync(home);
    mkdirSync(outside);
    seed(workspace);
    const store = openSqliteEventStore(join(home, 'correx.db'), { catalog: correxEventCatalog });
    try {
      await recordExecSession(store, {
        sessionId: 's1',
        workspace,
        preimageDirectory: preimageDirectory(home),
        calls: CALLS,
      });
    } finally {
      await store.close();
    }
    const moved = swapFolderForLink(workspace, outside);
    const before = snapshot(moved);
    expect(before).toEqual({ 'a.txt': 'one\nTWO\n', 'b.txt': 'made\n' });

    const result = await correx(home, ['undo', 's1']);

    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('refused to undo; nothing was changed');
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      expect(result.stderr).toContain(
        `no longer inside the workspace (a folder on its way is now a symlink or a file): ${join(workspace, 'src', name)}`,
      );
    expect(snapshot(moved)).toEqual(before);
    const events = await correx(home, ['events', 's1', '--json']);
    expect(events.stdout).not.toContain('workspace_restored');
  });

  it('POST /api/sessions/:id/undo refuses with 409 naming each path, and changes nothing outside', async () => {
    const fixture = await startTestServer({ files: {}, deps: { user: 'alice' } });
    const workspace = fixture.workspace;
    const preimages = join(dirname(workspace), 'correx', 'preimages');
    const outside = join(dirname(workspace), 'outside');
    mkdirSync(outside);
    seed(workspace);
    await recordExecSession(fixture.store, {
      sessionId: 's1',
      workspace,
      preimageDirectory: preimages,
      calls: CALLS,
    });
    await fixture.close();
    const server = await startTestServer({
      reuse: { store: fixture.store, workspace, storePath: fixture.storePath },
      deps: { user: 'alice', preimageDirectory: preimages },
    });
    const moved = swapFolderForLink(workspace, outside);
    const before = snapshot(moved);
    const lastBefore = await server.store.lastSequence('s1');

    const reply = await api(server.address).post('/api/sessions/s1/undo', {});

    expect(reply.status).toBe(409);
    const refused = UndoRefusedResponseSchema.parse(reply.body);
    expect(refused.outsideWorkspace.sort()).toEqual(
      ['a.txt', 'b.txt', 'c.txt'].map((name) => join(workspace, 'src', name)),
    );
    expect(refused.error.message).toContain(
      `${join(workspace, 'src', 'a.txt')} no longer resolves inside the workspace`,
    );
    expect(snapshot(moved)).toEqual(before);
    expect(existsSync(join(moved, 'c.txt'))).toBe(false);
    expect(await server.store.lastSequence('s1')).toBe(lastBefore);
  });
});

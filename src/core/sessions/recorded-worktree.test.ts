import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../event-catalog.js';
import { createInMemoryEventStore } from '../events/in-memory-event-store.js';
import { readRecordedWorktree, type RecordedWorktree } from './recorded-worktree.js';
import { decideLifecycle } from './session-lifecycle.js';

const worktree: RecordedWorktree = {
  path: '/repos/.correx-worktrees/app/s1',
  branch: 'correx/s1',
  repository: '/repos/app',
  repositoryGitDir: '/repos/app/.git',
  commonDir: '/repos/app/.git',
  gitDir: '/repos/app/.git/worktrees/s1',
  base: 'main',
};

const create = {
  type: 'create',
  task: 'fix it',
  workspace: worktree.path,
  workflowId: 'w',
  mode: 'auto',
} as const;

describe('the worktree recorded at a session start', () => {
  it('is carried by session_created and read back from the log, never rediscovered', async () => {
    const [payload] = decideLifecycle({ status: 'new', workflowId: null }, { ...create, worktree });
    expect(payload).toMatchObject({ type: 'session_created', worktree });
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    await store.append({
      eventId: 'e1',
      sessionId: 's1',
      timestamp: '2026-12-03T00:00:00.000Z',
      payload: payload!,
    });
    expect(await readRecordedWorktree(store, 's1')).toEqual(worktree);
  });

  it('is absent for a session started without one (the recorded bytes stay as before)', async () => {
    const [payload] = decideLifecycle({ status: 'new', workflowId: null }, create);
    expect(payload).not.toHaveProperty('worktree');
    const store = createInMemoryEventStore({ catalog: correxEventCatalog });
    await store.append({
      eventId: 'e1',
      sessionId: 's2',
      timestamp: '2026-12-03T00:00:00.000Z',
      payload: payload!,
    });
    expect(await readRecordedWorktree(store, 's2')).toBeNull();
    expect(await readRecordedWorktree(store, 'unknown')).toBeNull();
  });

  it('refuses a relative location', () => {
    const schema = correxEventCatalog.definitions.get('session_created')!.schema;
    const created = { ...create, type: 'session_created' };
    expect(schema.safeParse({ ...created, worktree }).success).toBe(true);
    expect(
      schema.safeParse({ ...created, worktree: { ...worktree, gitDir: 'evil/gd' } }).success,
    ).toBe(false);
  });
});

import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { OperatorMode } from '../core/approvals/approval-tier.js';
import type { Clock } from '../core/base/clock.js';
import { CorrexError } from '../core/base/correx-error.js';
import type { IdSource } from '../core/base/id-source.js';
import type { Sha256 } from '../core/base/sha256.js';
import type { CorrexEvent, CorrexEventStore, EventPayload } from '../core/event-catalog.js';
import type { NewEvent } from '../core/events/event-envelope.js';
import { UnknownSessionError } from '../core/kernel/index.js';
import type { KernelConfig } from '../core/kernel/index.js';
import { kernelConfigFromConfiguration, sessionConfiguredPayload } from '../core/kernel/index.js';
import { planUndo, recordedChanges, type UndoStep } from '../core/kernel/index.js';
import { prefixPathsInsideFork } from '../core/kernel/index.js';
import type { PreimageStore } from '../infrastructure/sandbox/preimage-store.js';
import { restoreWorkspace } from '../infrastructure/sandbox/restore-workspace.js';
import { recordedFileContent } from './recorded-file-content.js';
import { ForkPointError, isForkPoint, nearestForkPoints, resolveForkPoint } from './fork-point.js';

export { ForkPointError } from './fork-point.js';

export type ForkRequest = {
  readonly parentSessionId: string;
  /**
   * The parent's event the fork starts after (its events 1..k are copied): a sequence, or a
   * stage or call as `correx fork --at` takes it (see resolveForkPoint).
   */
  readonly at: number | string;
  /** The fork's new session id. */
  readonly forkSessionId: string;
  /** Where the rebuilt workspace goes (default: `<parent workspace>-fork-<short id>` beside it). */
  readonly workspace?: string;
  readonly mode?: OperatorMode;
  /** The model profile the fork runs on, named in `session_forked`. */
  readonly modelProfile?: string;
  /**
   * The fork's kernel config from the parent's recorded one (another model, policy or workflow);
   * default: the parent's. Told the fork's workspace and the parent's state at k, so it can
   * check that the fork can go on under it; throwing refuses the fork before anything is written.
   */
  readonly configure?: (
    parent: KernelConfig,
    fork: ForkContext,
  ) => KernelConfig | Promise<KernelConfig>;
  /** What the fork changed besides the model, named in `session_forked`. */
  readonly changed?: ForkChanges;
  /** Go on without the files whose content at the event cannot be rebuilt. */
  readonly allowMissing?: boolean;
  readonly by: string;
};

/** What `configure` is told about the fork it configures. */
export type ForkContext = {
  readonly workspace: string;
  /** The parent's events 1..k. */
  readonly prefix: readonly CorrexEvent[];
};

/** The fork's changes besides the model, as `session_forked` names them. */
export type ForkChanges = {
  /** The model profiles the fork routes among (`--profile`). */
  readonly profiles?: readonly string[];
  /** The policy file the fork runs under (`--policy`), and its SHA-256. */
  readonly policy?: { readonly path: string; readonly sha256: string };
  /** The workflow the fork goes on with (`--workflow`): its id. */
  readonly workflow?: string;
};

export type ForkResult = {
  readonly sessionId: string;
  readonly parentSessionId: string;
  readonly atSequence: number;
  /** What `at` named, in words (`#25`, `stage implement#1 (started at #19)`). */
  readonly named: string;
  readonly parentHash: string;
  readonly workspace: string;
  /** Files (workspace-relative) restored to their content at the event. */
  readonly restored: readonly string[];
  /** Files (workspace-relative) left as the parent's workspace holds them now (`--allow-missing`). */
  readonly missing: readonly string[];
  /** The events copied from the parent. */
  readonly copied: number;
};

/** The workspace at the event cannot be rebuilt: the files whose content was never kept. */
export class ForkWorkspaceError extends CorrexError {
  constructor(
    message: string,
    readonly files: readonly string[],
  ) {
    super('fork_workspace_unrebuildable', message);
  }
}

/**
 * `correx fork`: a new session whose log starts with the parent's events 1..k, in a workspace
 * rebuilt as it was at k. The workspace is the parent's copied, then every change recorded
 * after k undone from the stored pre-images (newest state back to the first change after k,
 * as `correx undo` does), and each file the log names checked against the hash and mode the
 * log recorded at k. What cannot be rebuilt is named before anything is written to the store.
 * The copied events keep their payloads, timestamps and order; their envelopes carry the fork's
 * session id and ids derived from the parent's (event ids are unique in a store). Only two
 * payloads may differ: `session_configured` (the fork's own configuration, when it runs on
 * another model) and `session_created` (its workspace and mode); `session_forked`, recorded
 * right after the prefix, keeps the parent's values, the parent's id, k and the parent's hash
 * at k. The fork is then driven like a resumed session.
 */
export async function forkSession(
  deps: {
    readonly store: CorrexEventStore;
    readonly preimages: PreimageStore;
    readonly clock: Clock;
    readonly ids: IdSource;
    readonly sha256: Sha256;
  },
  request: ForkRequest,
): Promise<ForkResult> {
  const { store } = deps;
  const { parentSessionId: parentId } = request;
  const events = await store.read(parentId);
  if (events.length === 0) throw new UnknownSessionError(parentId);
  const { sequence: k, named } = resolveForkPoint(events, parentId, request.at);
  const chain = await store.verify(parentId);
  if (!chain.ok)
    throw new ForkPointError(
      `session ${parentId}'s chain is broken at #${chain.sequence}: ${chain.detail}`,
    );
  const last = events.at(-1)!.sequence;
  if (!Number.isInteger(k) || k < 1 || k > last)
    throw new ForkPointError(`session ${parentId} has no event #${k} (its last is #${last})`);
  if (!isForkPoint(events, k)) {
    const near = nearestForkPoints(events, k);
    const named = [near.before, near.after].filter((point) => point !== null).map((p) => `#${p}`);
    throw new ForkPointError(
      `cannot fork ${parentId} at #${k} (${events[k - 1]!.payload.type}): there the kernel is not waiting for its next decision (an effect is open, or a decision awaits one); the nearest points to fork at are ${named.join(' and ') || 'none'}`,
    );
  }
  const configured = events[0]!;
  const createdIndex = events.findIndex((event) => event.payload.type === 'session_created');
  const created = events[createdIndex];
  if (
    configured.payload.type !== 'session_configured' ||
    created === undefined ||
    createdIndex >= k
  )
    throw new ForkPointError(
      `session ${parentId} recorded no configuration and start before #${k}: nothing to fork`,
    );
  const createdPayload = created.payload as Extract<EventPayload, { type: 'session_created' }>;
  if (createdPayload.parent !== undefined)
    throw new ForkPointError(`session ${parentId} is a sub-session: fork its parent instead`);
  if (createdPayload.worktree !== undefined)
    throw new ForkPointError(
      `session ${parentId} ran in a git worktree of its own: forking it is not supported yet`,
    );
  const parentWorkspace = createdPayload.workspace;
  const workspace = resolve(
    request.workspace ??
      join(
        dirname(parentWorkspace),
        `${basename(parentWorkspace)}-fork-${request.forkSessionId.slice(-8)}`,
      ),
  );
  if (existsSync(workspace) && readdirSync(workspace).length > 0)
    throw new ForkPointError(`the fork's workspace ${workspace} exists and is not empty`);
  if (!existsSync(parentWorkspace))
    throw new ForkWorkspaceError(`the parent's workspace ${parentWorkspace} is gone`, []);
  // The fork reads the prefix's paths inside the parent's workspace as its own; a path the
  // parent recorded outside its workspace must not read as one of the fork's files.
  const inside = prefixPathsInsideFork(
    events.slice(0, k).map((event) => event.payload),
    parentWorkspace,
    workspace,
  );
  if (inside.length > 0)
    throw new ForkWorkspaceError(
      `the fork's workspace ${workspace} holds paths the parent recorded outside its own workspace (${inside.slice(0, 3).join(', ')}${inside.length > 3 ? ', …' : ''}): fork into another folder`,
      inside,
    );

  // Which files need bytes that were never kept, named before anything is written. A content
  // the log itself holds at k (a whole read, the writes and edits after it) needs no pre-image.
  const plan = planUndo(events, { toSequence: k });
  if (!plan.ok) throw new ForkPointError(plan.message);
  const preimages = withLoggedContents(deps.preimages, events, k, plan.steps);
  const missing = plan.steps
    .filter((step) => step.restore !== null && !preimages.has(step.restore))
    .map((step) => relative(parentWorkspace, step.path));
  if (missing.length > 0 && request.allowMissing !== true)
    throw new ForkWorkspaceError(
      `cannot rebuild the workspace of ${parentId} at #${k}: the content of ${missing.join(', ')} at that event was never kept (no pre-image); \`--allow-missing\` forks without it`,
      missing,
    );

  // The fork's configuration is checked before anything is written too.
  const parentConfig = kernelConfigFromConfiguration(configured.payload.configuration, {
    sha256: deps.sha256,
  });
  const forkConfig =
    request.configure === undefined
      ? null
      : await request.configure(parentConfig, { workspace, prefix: events.slice(0, k) });
  const forkConfigured =
    forkConfig === null ? configured.payload : sessionConfiguredPayload(forkConfig);

  const rebuilt = await rebuildWorkspace(
    events,
    k,
    parentWorkspace,
    workspace,
    plan.steps.filter((step) => !missing.includes(relative(parentWorkspace, step.path))),
    preimages,
    new Set(missing),
  );

  const mode = request.mode ?? createdPayload.mode;
  const ids = new Map<string, string>();
  const forkId = (id: string) =>
    `fk-${deps.sha256(`${request.forkSessionId}\n${id}`).slice(0, 40)}`;
  for (const event of events.slice(0, k)) ids.set(event.eventId, forkId(event.eventId));
  const mapped = (id: string | null) => (id === null ? null : (ids.get(id) ?? id));
  const prefix: NewEvent<EventPayload>[] = events.slice(0, k).map((event) => ({
    eventId: ids.get(event.eventId)!,
    sessionId: request.forkSessionId,
    timestamp: event.timestamp,
    causationId: mapped(event.causationId),
    correlationId: mapped(event.correlationId),
    payload:
      event === configured
        ? forkConfigured
        : event === created
          ? { ...createdPayload, workspace, mode }
          : event.payload,
  }));
  const parentHash = events[k - 1]!.hash;
  const forked: NewEvent<EventPayload> = {
    eventId: deps.ids.next(),
    sessionId: request.forkSessionId,
    timestamp: deps.clock.now(),
    causationId: ids.get(events[k - 1]!.eventId)!,
    correlationId: null,
    payload: {
      type: 'session_forked',
      parentSessionId: parentId,
      atSequence: k,
      parentHash,
      parentConfigurationDigest: configured.payload.digest,
      parentWorkspace,
      workspace,
      parentMode: createdPayload.mode,
      mode,
      ...(request.modelProfile === undefined ? {} : { modelProfile: request.modelProfile }),
      ...(request.changed?.profiles === undefined
        ? {}
        : { profiles: [...request.changed.profiles] }),
      ...(request.changed?.policy === undefined ? {} : { policy: { ...request.changed.policy } }),
      ...(request.changed?.workflow === undefined ? {} : { workflow: request.changed.workflow }),
      missing: rebuilt.missing,
      by: request.by,
    },
  };
  const batch = 500;
  const all = [...prefix, forked];
  for (let start = 0; start < all.length; start += batch)
    await store.appendAll(all.slice(start, start + batch), { expectedSequence: start });
  return {
    sessionId: request.forkSessionId,
    parentSessionId: parentId,
    atSequence: k,
    named,
    parentHash,
    workspace,
    restored: rebuilt.restored,
    missing: rebuilt.missing,
    copied: k,
  };
}

/**
 * The pre-image store, plus the contents at k that the log itself holds for the files to restore
 * (`recordedFileContent`: a whole `read_file`, then the writes and edits after it), each used
 * only when its SHA-256 is the one the undo plan restores. Nothing is written to the store.
 */
function withLoggedContents(
  store: PreimageStore,
  events: readonly CorrexEvent[],
  k: number,
  steps: readonly UndoStep[],
): PreimageStore {
  const logged = new Map<string, Buffer>();
  for (const step of steps) {
    if (step.restore === null || store.has(step.restore)) continue;
    const content = recordedFileContent(events, step.path, k + 1);
    if (content === undefined) continue;
    const bytes = Buffer.from(content, 'utf8');
    if (createHash('sha256').update(bytes).digest('hex') === step.restore)
      logged.set(step.restore, bytes);
  }
  if (logged.size === 0) return store;
  return {
    directory: store.directory,
    put: (bytes) => store.put(bytes),
    get: (sha256) => logged.get(sha256) ?? store.get(sha256),
    has: (sha256) => logged.has(sha256) || store.has(sha256),
  };
}

/**
 * Copies the parent's workspace to `workspace`, undoes there every change recorded after k, and
 * checks each file the log names against what it recorded at k. Removes the copy on failure.
 */
async function rebuildWorkspace(
  events: readonly CorrexEvent[],
  k: number,
  parentWorkspace: string,
  workspace: string,
  steps: readonly UndoStep[],
  preimages: PreimageStore,
  missing: ReadonlySet<string>,
): Promise<{ restored: string[]; missing: string[] }> {
  cpSync(parentWorkspace, workspace, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
  });
  try {
    const moved = steps.map((step) => ({
      ...step,
      path: join(workspace, relative(parentWorkspace, step.path)),
    }));
    const result = await restoreWorkspace(moved, { workspaceRoot: workspace, preimages });
    if (!result.ok) {
      const named = [
        ...result.changedSince.map(
          (path) => `${relative(workspace, path)} (changed since the session)`,
        ),
        ...result.missingPreimages.map((path) => `${relative(workspace, path)} (no pre-image)`),
        ...result.outsideWorkspace.map(
          (path) => `${relative(workspace, path)} (outside the workspace)`,
        ),
      ];
      throw new ForkWorkspaceError(`cannot rebuild the workspace at #${k}: ${named.join(', ')}`, [
        ...result.changedSince,
        ...result.missingPreimages,
        ...result.outsideWorkspace,
      ]);
    }
    const wrong: string[] = [];
    for (const [path, expected] of recordedAt(events, k)) {
      const rel = relative(parentWorkspace, path);
      if (missing.has(rel)) continue;
      const actual = fileState(join(workspace, rel));
      if (
        actual.sha256 !== expected.sha256 ||
        (expected.mode !== null && actual.mode !== expected.mode)
      )
        wrong.push(rel);
    }
    if (wrong.length > 0)
      throw new ForkWorkspaceError(
        `the rebuilt workspace does not hold what the log recorded at #${k}: ${wrong.join(', ')}`,
        wrong,
      );
    return {
      restored: steps.map((step) => relative(parentWorkspace, step.path)),
      missing: [...missing],
    };
  } catch (error) {
    rmSync(workspace, { recursive: true, force: true });
    throw error;
  }
}

/**
 * What the log says each file it names held at k: the last recorded change at or before k, or
 * else the bytes before the first change after k.
 */
function recordedAt(
  events: readonly CorrexEvent[],
  k: number,
): Map<string, { sha256: string | null; mode: number | null }> {
  const at = new Map<string, { sha256: string | null; mode: number | null }>();
  const before = new Map<string, { sha256: string | null; mode: number | null }>();
  for (const change of recordedChanges(events))
    for (const file of change.files) {
      if (file.access === 'read') continue;
      if (change.sequence <= k)
        at.set(file.path, { sha256: file.after, mode: file.modeAfter ?? null });
      else if (!at.has(file.path) && !before.has(file.path))
        before.set(file.path, { sha256: file.before, mode: file.modeBefore ?? null });
    }
  for (const [path, state] of before) if (!at.has(path)) at.set(path, state);
  return at;
}

function fileState(path: string): { sha256: string | null; mode: number | null } {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) return { sha256: null, mode: null };
    return {
      sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
      mode: stat.mode & 0o7777,
    };
  } catch {
    return { sha256: null, mode: null };
  }
}

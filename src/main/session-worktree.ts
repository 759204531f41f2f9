import { answerTextOf } from '../core/kernel/index.js';
import type { CorrexEvent } from '../core/event-catalog.js';
import type { RecordedWorktree } from '../core/sessions/recorded-worktree.js';
import {
  addSessionWorktree,
  commitStage,
  type SessionWorktree,
} from '../infrastructure/workspace/git-worktree.js';
import type { SessionWorktreeInfo, StartSessionRequest } from '../interfaces/session-host.js';
import { resolveWorkspace, type SessionSetupOptions } from './session-setup.js';

/**
 * A new session's worktree: the requested workspace is checked as usual (allowed roots, none of
 * correx's files), then the session runs in a worktree of its repository, which the allowed
 * roots admit because it was made from an allowed one.
 */
export function isolate<Options extends SessionSetupOptions>(
  request: StartSessionRequest,
  sessionId: string,
  options: Options,
): { request: StartSessionRequest; options: Options; worktree: SessionWorktree } {
  const workspace = resolveWorkspace(request.workspace, options);
  const worktree = addSessionWorktree(workspace, sessionId);
  const path = worktree.path;
  return {
    worktree,
    request: { ...request, workspace: path },
    options:
      options.allowedRoots === undefined
        ? options
        : { ...options, allowedRoots: [...options.allowedRoots, path] },
  };
}

/** What `session_created` records of a session's worktree: its locations, for every later git command. */
export function recordWorktree(worktree: SessionWorktree): RecordedWorktree {
  const { path, branch, repository, repositoryGitDir, commonDir, gitDir, base } = worktree;
  return { path, branch, repository, repositoryGitDir, commonDir, gitDir, base };
}

export function describeWorktree(worktree: SessionWorktree): SessionWorktreeInfo {
  return {
    path: worktree.path,
    branch: worktree.branch,
    base: worktree.base,
    uncommitted: worktree.uncommitted,
  };
}

/**
 * The event hook of a session's drive: when the session works in its own worktree, each
 * accepted stage's changes are committed on its branch as the stage completes, before the next
 * stage can change anything (the commit is synchronous for that reason). The message is the
 * artifact's `summary` when the model wrote one, with trailers naming the session and the
 * `stage_completed` event's sequence. The worktree is the one recorded at the session's start,
 * never one found through the workspace: a session without one commits nothing.
 */
export function withStageCommits(
  sessionId: string,
  worktree: RecordedWorktree | null,
  options: {
    readonly onEvent?: (event: CorrexEvent) => void;
    readonly onError?: (sessionId: string, error: unknown) => void;
  },
): ((event: CorrexEvent) => void) | undefined {
  if (worktree === null) return options.onEvent;
  let lastText: string | null = null;
  let accepted: { kind: string; hash: string; text: string | null } | null = null;
  return (event) => {
    const payload = event.payload;
    if (event.sessionId === sessionId) {
      if (payload.type === 'inference_completed') lastText = answerTextOf(payload.result);
      else if (payload.type === 'artifact_accepted')
        accepted = { kind: payload.kind, hash: payload.hash, text: lastText };
      else if (payload.type === 'stage_completed') {
        // A failed commit leaves the changes in the worktree for the next one: said, not fatal.
        try {
          commitStage(worktree, stageMessage(payload.stageId, accepted), {
            sessionId,
            sequence: event.sequence,
          });
        } catch (error) {
          options.onError?.(sessionId, error);
        }
        accepted = null;
      }
    }
    options.onEvent?.(event);
  };
}

function stageMessage(
  stageId: string,
  artifact: { kind: string; hash: string; text: string | null } | null,
): string {
  if (artifact === null) return `${stageId}: stage completed`;
  try {
    const { summary } = JSON.parse(artifact.text ?? '') as { summary?: unknown };
    if (typeof summary === 'string' && summary.trim() !== '')
      return `${stageId}: ${summary.trim()}`;
  } catch {
    // Not a JSON object with a summary: name the artifact instead.
  }
  return `${stageId}: accepted ${artifact.kind} artifact ${artifact.hash.slice(0, 12)}`;
}

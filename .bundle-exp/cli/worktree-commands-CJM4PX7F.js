import {
  AttestationUnreadableError,
  decodeStatement,
  parseEnvelope,
  statedSessionId
} from "./chunk-LUZIHC3V.js";
import {
  readTreeUnderReview
} from "./chunk-7FCCLOU5.js";
import {
  WorktreeError,
  derivedSessionWorktree,
  mergeSessionBranch,
  removeSessionWorktree
} from "./chunk-Y6YTVGPA.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import "./chunk-XFVAXZIU.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  recordCommand,
  replay,
  sessionProjection
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import {
  isFinalStatus,
  readRecordedWorktree
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/worktree-commands.ts
import { Command } from "commander";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
async function worktreeOf(stores, typed, command) {
  const sessionId = await resolveSessionRef(stores.events, typed, command);
  const { state } = await replay(stores.events, sessionProjection, sessionId);
  const worktree = await readRecordedWorktree(stores.events, sessionId) ?? (state.workspace === null ? null : derivedSessionWorktree(state.workspace, sessionId));
  if (worktree === null)
    throw new WorktreeError(
      `session ${sessionId} has no worktree (started without --worktree, or discarded)`
    );
  return { sessionId, worktree, final: isFinalStatus(state.status) };
}
function attestationTrailer(file, sessionId, worktree) {
  const envelope = parseEnvelope(readFileSync(resolve(file), "utf8"), file);
  const decoded = decodeStatement(envelope);
  if ("problem" in decoded) throw new AttestationUnreadableError(`${file}: ${decoded.problem}`);
  if (statedSessionId(decoded.statement) !== sessionId)
    throw new AttestationUnreadableError(`${file} is not about session ${sessionId}`);
  const git = decoded.statement.predicate.git;
  const head = readTreeUnderReview(worktree.path, worktree);
  if (head.kind !== "git" || git?.commit !== head.commit)
    throw new AttestationUnreadableError(
      `${file} names commit ${String(git?.commit ?? "none").slice(0, 12)}, but ${worktree.branch} is at ${head.kind === "git" ? head.commit.slice(0, 12) : "no commit"}: attest again`
    );
  const digest = createHash("sha256").update(Buffer.from(envelope.payload, "base64")).digest("hex");
  return `Correx-Attestation: sha256:${digest}`;
}
function worktreeCommands(context) {
  const branch = new Command("branch").description("print the git branch of a session's worktree (correx/<session>)").argument("[session]", SESSION_ARGUMENT).action(async (typed, _options, command) => {
    await withStore(context, command, async (stores) => {
      const { worktree } = await worktreeOf(stores, typed, command);
      context.out(worktree.branch);
      context.out(`worktree ${worktree.path}; from ${worktree.base} in ${worktree.repository}`);
    });
  });
  const merge = new Command("merge").description(
    "merge a session's branch into the branch it started from (refused, and nothing merged, on conflict)"
  ).argument("[session]", SESSION_ARGUMENT).option(
    "--attestation <file>",
    "a statement from correx attest about the branch's head: its digest goes in the merge commit's Correx-Attestation trailer"
  ).action(
    async (typed, options, command) => {
      await withStore(context, command, async (stores) => {
        const { sessionId, worktree, final } = await worktreeOf(stores, typed, command);
        if (!final)
          throw new WorktreeError(
            `session ${sessionId} has not ended; merge it once it has (or cancel it)`
          );
        const trailers = options.attestation === void 0 ? [] : [attestationTrailer(options.attestation, sessionId, worktree)];
        const { commit } = mergeSessionBranch(worktree, { trailers });
        context.out(`merged ${worktree.branch} into ${worktree.base} (${commit.slice(0, 12)})`);
      });
    }
  );
  const discard = new Command("discard").description("remove a session's worktree and branch (cancels the session first if it is open)").argument("[session]", SESSION_ARGUMENT).action(async (typed, _options, command) => {
    await withStore(context, command, async (stores) => {
      const { sessionId, worktree, final } = await worktreeOf(stores, typed, command);
      if (!final) {
        await recordCommand(context, stores.events, sessionId, {
          type: "cancel",
          by: context.user,
          reason: "discarded with correx discard"
        });
        context.out(`cancelled ${sessionId}`);
      }
      const removed = removeSessionWorktree(worktree);
      context.out(`removed worktree ${removed.path} and branch ${removed.branch}`);
    });
  });
  return [branch, merge, discard];
}
export {
  worktreeCommands
};

import {
  runHardenedGitBytes,
  verifyWorktreeLocation
} from "./chunk-Y6YTVGPA.js";

// src/infrastructure/provenance/tree-under-review.ts
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readlinkSync } from "node:fs";
import { isAbsolute, join } from "node:path";
var gitText = (location, args) => runHardenedGitBytes(location, args).toString("utf8").trim();
function readTreeUnderReview(workspace, worktree) {
  if (!existsSync(workspace)) return { kind: "absent", path: workspace };
  if (worktree === null) return { kind: "files", path: workspace };
  try {
    verifyWorktreeLocation(worktree);
  } catch (error) {
    return { kind: "absent", path: workspace, reason: error.message };
  }
  const location = { gitDir: worktree.gitDir, workTree: worktree.path };
  const commit = gitText(location, ["rev-parse", "HEAD"]);
  const baseCommit = (() => {
    try {
      return gitText(location, ["merge-base", worktree.base, worktree.branch]);
    } catch {
      return null;
    }
  })();
  const uncommitted = runHardenedGitBytes(location, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all"
  ]).toString("utf8").split("\0").filter((entry) => entry.length > 3).map((entry) => entry.slice(3));
  return {
    kind: "git",
    path: workspace,
    location,
    branch: worktree.branch,
    baseRef: worktree.base,
    baseCommit,
    commit,
    tree: gitText(location, ["rev-parse", `${commit}^{tree}`]),
    uncommitted
  };
}
var sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
function contentDigests(tree, paths) {
  const digests = /* @__PURE__ */ new Map();
  if (tree.kind === "git") {
    const relative = paths.filter((path) => !isAbsolute(path));
    if (relative.length > 0) {
      const output = runHardenedGitBytes(
        tree.location,
        ["cat-file", "--batch"],
        Buffer.from(relative.map((path) => `${tree.commit}:${path}
`).join(""))
      );
      let offset = 0;
      for (const path of relative) {
        const end = output.indexOf(10, offset);
        const header = output.subarray(offset, end).toString("utf8");
        offset = end + 1;
        if (header.endsWith(" missing") || header.endsWith(" ambiguous")) {
          digests.set(path, null);
          continue;
        }
        const [, type, size] = header.split(" ");
        const length = Number(size);
        digests.set(
          path,
          type === "blob" ? sha256(output.subarray(offset, offset + length)) : null
        );
        offset += length + 1;
      }
    }
    for (const path of paths) if (isAbsolute(path)) digests.set(path, fileDigest(path));
    return digests;
  }
  for (const path of paths)
    digests.set(
      path,
      tree.kind === "absent" ? null : fileDigest(isAbsolute(path) ? path : join(tree.path, path))
    );
  return digests;
}
function fileDigest(path) {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return sha256(Buffer.from(readlinkSync(path)));
    if (!stat.isFile()) return null;
    return sha256(readFileSync(path));
  } catch {
    return null;
  }
}
function gitChangedPaths(location, from, to) {
  return runHardenedGitBytes(location, [
    "diff",
    "--no-renames",
    "--no-ext-diff",
    "--name-only",
    "-z",
    from,
    to
  ]).toString("utf8").split("\0").filter((entry) => entry !== "");
}
function gitIgnoredPaths(location, files) {
  const relative = files.filter((file) => !isAbsolute(file));
  if (relative.length === 0) return /* @__PURE__ */ new Set();
  try {
    const output = runHardenedGitBytes(
      location,
      ["check-ignore", "--no-index", "-z", "--stdin"],
      Buffer.from(relative.join("\0") + "\0")
    );
    return new Set(
      output.toString("utf8").split("\0").filter((entry) => entry !== "")
    );
  } catch {
    return /* @__PURE__ */ new Set();
  }
}
function treeDifferences(tree, files) {
  if (tree.kind === "absent") return [tree.reason ?? `the workspace ${tree.path} is gone`];
  const differences = [];
  const ignored = tree.kind === "git" ? gitIgnoredPaths(
    tree.location,
    files.map((f) => f.path)
  ) : /* @__PURE__ */ new Set();
  const compared = files.filter((file) => !ignored.has(file.path));
  const now = contentDigests(
    tree,
    compared.map((file) => file.path)
  );
  for (const file of compared) {
    const actual = now.get(file.path) ?? null;
    if (actual !== file.sha256)
      differences.push(
        `${file.path}: the log's last change left ${describe(file.sha256)}, the tree has ${describe(actual)}`
      );
  }
  if (tree.kind === "git") {
    const recorded = new Set(files.map((file) => file.path));
    if (tree.baseCommit !== null) {
      for (const path of gitChangedPaths(tree.location, tree.baseCommit, tree.commit))
        if (!recorded.has(path))
          differences.push(
            `${path}: changed on ${tree.branch} but not by any change the log records`
          );
    }
    for (const path of tree.uncommitted)
      differences.push(`${path}: changed in the worktree and not committed`);
  }
  return differences;
}
function describe(digest) {
  return digest === null ? "no file" : `sha256 ${digest.slice(0, 12)}`;
}

export {
  readTreeUnderReview,
  contentDigests,
  gitChangedPaths,
  treeDifferences
};

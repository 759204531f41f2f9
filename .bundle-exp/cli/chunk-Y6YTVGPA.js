import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/workspace/hardened-git.ts
import { execFileSync } from "node:child_process";
var WorktreeError = class extends CorrexError {
  constructor(detail, options) {
    super("worktree_failed", detail, options);
  }
};
var HARDENED_GIT_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.sshCommand=false",
  "core.askPass=false",
  "core.editor=false",
  "core.pager=cat",
  "core.attributesFile=/dev/null",
  "core.untrackedCache=false",
  "credential.helper=",
  "diff.external=",
  "diff.ignoreSubmodules=all",
  "status.submoduleSummary=false",
  "submodule.recurse=false",
  "protocol.allow=never",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "merge.verifySignatures=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "safe.bareRepository=explicit"
];
function hardenedGitEnvironment(location) {
  const env = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith("GIT_") && key !== "SSH_ASKPASS") env[key] = value;
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_CONFIG_GLOBAL = "/dev/null";
  env.GIT_ATTR_NOSYSTEM = "1";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  if (location !== null) {
    env.GIT_DIR = location.gitDir;
    env.GIT_WORK_TREE = location.workTree;
  }
  return env;
}
function runHardenedGit(where, args) {
  const location = "gitDir" in where ? where : null;
  const cwd = location === null ? where.discoverFrom : location.workTree;
  const env = hardenedGitEnvironment(location);
  const overrides = [...HARDENED_GIT_CONFIG, ...driverOverrides(cwd, env)].flatMap((setting) => [
    "-c",
    setting
  ]);
  try {
    return execFileSync("git", [...overrides, ...args], {
      cwd,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"]
    }).trim();
  } catch (error) {
    const stderr = String(error.stderr ?? "").trim();
    throw new WorktreeError(`git ${args.join(" ")} in ${cwd} failed: ${stderr}`, { cause: error });
  }
}
function runHardenedGitBytes(location, args, input) {
  const env = hardenedGitEnvironment(location);
  const overrides = [...HARDENED_GIT_CONFIG, ...driverOverrides(location.workTree, env)].flatMap(
    (setting) => ["-c", setting]
  );
  try {
    return execFileSync("git", [...overrides, ...args], {
      cwd: location.workTree,
      env,
      maxBuffer: 512 * 1024 * 1024,
      stdio: [input === void 0 ? "ignore" : "pipe", "pipe", "pipe"],
      ...input === void 0 ? {} : { input }
    });
  } catch (error) {
    const stderr = String(error.stderr ?? "").trim();
    throw new WorktreeError(`git ${args.join(" ")} in ${location.workTree} failed: ${stderr}`, {
      cause: error
    });
  }
}
function readGlobalIdentity() {
  const env = hardenedGitEnvironment(null);
  delete env.GIT_CONFIG_GLOBAL;
  try {
    const lines = execFileSync(
      "git",
      ["config", "--global", "--get-regexp", "^user\\.(name|email)$"],
      { cwd: "/", env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }
    ).split("\n");
    const identity = {};
    for (const line of lines) {
      const match = /^user\.(name|email) (.+)$/.exec(line.trim());
      if (match !== null) identity[match[1]] = match[2];
    }
    return identity;
  } catch {
    return {};
  }
}
var DRIVER_KEY = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|command|textconv|driver)$/;
function driverOverrides(cwd, env) {
  let names;
  try {
    names = execFileSync(
      "git",
      [
        ...HARDENED_GIT_CONFIG.flatMap((setting) => ["-c", setting]),
        "config",
        "--name-only",
        "--get-regexp",
        DRIVER_KEY.source
      ],
      { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }
    ).split("\n").filter((line) => line !== "");
  } catch {
    return [];
  }
  const settings = [];
  for (const name of names) {
    const match = DRIVER_KEY.exec(name);
    if (match === null) continue;
    settings.push(`${name}=`);
    if (match[1] === "filter") settings.push(`filter.${match[2]}.required=false`);
  }
  return settings;
}

// src/infrastructure/workspace/git-worktree.ts
import { existsSync, mkdirSync, realpathSync as realpathSync2, rmSync } from "node:fs";
import { basename, dirname as dirname2, join as join2 } from "node:path";

// src/infrastructure/workspace/git-location.ts
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
var GitLocationChangedError = class extends CorrexError {
  constructor(detail) {
    super("git_location_changed", detail);
  }
};
function gitFileTarget(file) {
  let text;
  try {
    if (!lstatSync(file).isFile()) return null;
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const match = /^gitdir: (.+)$/.exec(text.trim());
  return match === null ? null : resolve(dirname(file), match[1]);
}
function real(path) {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
function isRealDirectory(path) {
  try {
    return lstatSync(path).isDirectory() && realpathSync(path) === path;
  } catch {
    return false;
  }
}
function readLine(path) {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}
function isAdminDirectoryOf(gitDir, commonDir, workTree) {
  if (!isRealDirectory(gitDir) || dirname(gitDir) !== join(commonDir, "worktrees")) return false;
  const common = readLine(join(gitDir, "commondir"));
  if (common === null || real(resolve(gitDir, common)) !== commonDir) return false;
  return readLine(join(gitDir, "gitdir")) === join(workTree, ".git");
}
function verifyRepositoryLocation(workTree, gitDir, commonDir) {
  const dotGit = join(workTree, ".git");
  if (gitDir === commonDir) {
    if (gitDir === dotGit && isRealDirectory(dotGit)) return { workTree, gitDir, commonDir };
    throw new WorktreeError(
      `${dotGit} points at ${gitDir}, which is not ${workTree}'s own git directory: correx starts a worktree only from a repository whose .git it can verify (a .git directory, or a linked worktree of one)`
    );
  }
  if (gitFileTarget(dotGit) !== null && real(gitFileTarget(dotGit)) === gitDir) {
    if (isAdminDirectoryOf(gitDir, commonDir, workTree)) return { workTree, gitDir, commonDir };
  }
  throw new WorktreeError(
    `${dotGit} points at ${gitDir}, which is not a worktree of ${commonDir} that belongs to ${workTree}: correx starts a worktree only from a repository whose .git it can verify`
  );
}
function verifyWorktreeLocation(worktree, options = {}) {
  const { commonDir, gitDir, path, repository, repositoryGitDir } = worktree;
  if (!isRealDirectory(commonDir))
    throw new GitLocationChangedError(
      `the repository's git directory recorded at session start (${commonDir}) is gone or replaced`
    );
  const repositoryOk = repositoryGitDir === commonDir ? real(join(repository, ".git")) === commonDir : isAdminDirectoryOf(repositoryGitDir, commonDir, repository);
  if (!repositoryOk)
    throw new GitLocationChangedError(
      `${repository} is no longer the working tree of the git directory recorded at session start (${repositoryGitDir})`
    );
  if (!isAdminDirectoryOf(gitDir, commonDir, path))
    throw new GitLocationChangedError(
      `the worktree's git directory recorded at session start (${gitDir}) is gone or no longer belongs to ${path}`
    );
  if (options.workspace === false) return;
  const target = gitFileTarget(join(path, ".git"));
  if (target === null || real(target) !== gitDir)
    throw new GitLocationChangedError(
      `the workspace's .git (${join(path, ".git")}) no longer points at the git directory recorded at session start (${gitDir}); nothing was committed`
    );
}

// src/infrastructure/workspace/git-worktree.ts
var MergeConflictError = class extends CorrexError {
  constructor(branch, into, files) {
    super(
      "merge_conflict",
      `merging ${branch} into ${into} conflicts in ${files.join(", ") || "the working tree"}; nothing was merged (resolve by hand with git merge ${branch})`
    );
    this.branch = branch;
    this.into = into;
    this.files = files;
  }
  branch;
  into;
  files;
};
function sessionBranch(sessionId) {
  return `correx/${sessionId}`;
}
function gitUnderLock(location, args) {
  for (let attempt = 1; ; attempt++) {
    try {
      return runHardenedGit(location, args);
    } catch (error) {
      if (attempt >= 40 || !/could not lock|Unable to create .*\.lock/.test(String(error.message)))
        throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}
function repositoryLocation(worktree) {
  return { gitDir: worktree.repositoryGitDir, workTree: worktree.repository };
}
function worktreeLocation(worktree) {
  return { gitDir: worktree.gitDir, workTree: worktree.path };
}
function findRepository(directory) {
  let lines;
  try {
    lines = runHardenedGit({ discoverFrom: directory }, [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-dir",
      "--git-common-dir"
    ]).split("\n");
  } catch (error) {
    throw new WorktreeError(`${directory} is not in a git repository`, { cause: error });
  }
  const [top, gitDir, commonDir] = lines;
  if (top === void 0 || gitDir === void 0 || commonDir === void 0 || top === "")
    throw new WorktreeError(`${directory} is not in a git repository with a working tree`);
  return verifyRepositoryLocation(realpathSync2(top), realpathSync2(gitDir), realpathSync2(commonDir));
}
function addSessionWorktree(directory, sessionId) {
  const found = findRepository(directory);
  const here = { gitDir: found.gitDir, workTree: found.workTree };
  const main = here;
  const branch = sessionBranch(sessionId);
  const head = runHardenedGit(here, ["rev-parse", "--abbrev-ref", "HEAD"]);
  const base = head === "HEAD" ? runHardenedGit(here, ["rev-parse", "HEAD"]) : head;
  runHardenedGit(here, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  if (runHardenedGit(main, ["branch", "--list", branch]) !== "")
    throw new WorktreeError(`the branch ${branch} already exists in ${found.workTree}`);
  const uncommitted = runHardenedGit(here, ["status", "--porcelain"]).split("\n").filter((line) => line !== "");
  const parent = join2(dirname2(found.workTree), ".correx-worktrees", basename(found.workTree));
  mkdirSync(parent, { recursive: true });
  const path = join2(parent, sessionId);
  if (existsSync(path)) throw new WorktreeError(`${path} already exists`);
  gitUnderLock(here, ["worktree", "add", "--quiet", "-b", branch, path, "HEAD"]);
  try {
    gitUnderLock(main, ["config", `branch.${branch}.correxBase`, base]);
    const realPath = realpathSync2(path);
    const gitDir = realpathSync2(
      runHardenedGit({ discoverFrom: realPath }, ["rev-parse", "--absolute-git-dir"])
    );
    const recorded = {
      path: realPath,
      branch,
      repository: found.workTree,
      repositoryGitDir: found.gitDir,
      base,
      gitDir,
      commonDir: found.commonDir
    };
    verifyWorktreeLocation(recorded);
    return { ...recorded, uncommitted };
  } catch (error) {
    try {
      runHardenedGit(main, ["worktree", "remove", "--force", path]);
    } catch {
      rmSync(path, { recursive: true, force: true });
      try {
        runHardenedGit(main, ["worktree", "prune"]);
      } catch {
      }
    }
    try {
      runHardenedGit(main, ["branch", "-D", branch]);
    } catch {
    }
    throw error;
  }
}
function derivedSessionWorktree(workspace, sessionId) {
  if (basename(workspace) !== sessionId) return null;
  if (basename(dirname2(dirname2(workspace))) !== ".correx-worktrees") return null;
  const repository = join2(dirname2(dirname2(dirname2(workspace))), basename(dirname2(workspace)));
  const commonDir = real2(join2(repository, ".git"));
  if (commonDir === null) return null;
  const branch = sessionBranch(sessionId);
  let base;
  try {
    base = runHardenedGit({ gitDir: commonDir, workTree: repository }, [
      "config",
      "--get",
      `branch.${branch}.correxBase`
    ]);
  } catch {
    return null;
  }
  return {
    path: workspace,
    branch,
    repository,
    repositoryGitDir: commonDir,
    base,
    gitDir: join2(commonDir, "worktrees", sessionId),
    commonDir
  };
}
function real2(path) {
  try {
    return realpathSync2(path);
  } catch {
    return null;
  }
}
var IDENTITY = ["-c", "user.name=correx", "-c", "user.email=correx@localhost"];
function personIdentity() {
  const { name, email } = readGlobalIdentity();
  if (email === void 0) return IDENTITY;
  return ["-c", `user.name=${name ?? "correx"}`, "-c", `user.email=${email}`];
}
function commitStage(worktree, message, trailer) {
  verifyWorktreeLocation(worktree);
  const location = worktreeLocation(worktree);
  runHardenedGit(location, ["add", "--all"]);
  if (runHardenedGit(location, ["status", "--porcelain", "--ignore-submodules=all"]) === "")
    return null;
  const configured = (() => {
    try {
      return runHardenedGit(location, ["config", "user.email"]) !== "";
    } catch {
      return false;
    }
  })();
  const identity = configured ? [] : personIdentity();
  runHardenedGit(location, [
    ...identity,
    "commit",
    "--quiet",
    "--no-verify",
    "-m",
    message,
    "-m",
    `Correx-Session: ${trailer.sessionId}
Correx-Event: ${trailer.sequence}`
  ]);
  return runHardenedGit(location, ["rev-parse", "HEAD"]);
}
function mergeSessionBranch(worktree, options = {}) {
  verifyWorktreeLocation(worktree, { workspace: false });
  const { repository, branch, base } = worktree;
  const main = repositoryLocation(worktree);
  const current = runHardenedGit(main, ["rev-parse", "--abbrev-ref", "HEAD"]);
  if (current !== base)
    throw new WorktreeError(
      `${repository} has ${current} checked out, not ${base} (where the session started): check out ${base} first`
    );
  try {
    const trailers = options.trailers ?? [];
    runHardenedGit(main, [
      ...IDENTITY,
      "merge",
      "--no-ff",
      "--no-verify",
      ...trailers.length === 0 ? ["--no-edit"] : ["-m", `Merge branch '${branch}'`, "-m", trailers.join("\n")],
      branch
    ]);
  } catch (error) {
    const files = (() => {
      try {
        return runHardenedGit(main, ["diff", "--no-ext-diff", "--name-only", "--diff-filter=U"]).split("\n").filter((file) => file !== "");
      } catch {
        return [];
      }
    })();
    try {
      runHardenedGit(main, ["merge", "--abort"]);
    } catch {
      throw error;
    }
    throw new MergeConflictError(branch, base, files);
  }
  return { commit: runHardenedGit(main, ["rev-parse", "HEAD"]) };
}
function removeSessionWorktree(worktree) {
  verifyWorktreeLocation(worktree, { workspace: false });
  const main = repositoryLocation(worktree);
  try {
    runHardenedGit(main, ["worktree", "remove", "--force", worktree.path]);
  } catch {
    rmSync(worktree.path, { recursive: true, force: true });
    runHardenedGit(main, ["worktree", "prune"]);
  }
  runHardenedGit(main, ["branch", "-D", worktree.branch]);
  return { path: worktree.path, branch: worktree.branch };
}

export {
  WorktreeError,
  runHardenedGitBytes,
  verifyWorktreeLocation,
  addSessionWorktree,
  derivedSessionWorktree,
  commitStage,
  mergeSessionBranch,
  removeSessionWorktree
};

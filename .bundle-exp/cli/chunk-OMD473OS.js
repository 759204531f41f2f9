// src/infrastructure/workspace/git-paths.ts
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
function gitPathsOf(workspaceRoot) {
  const found = gitLocationsOf(workspaceRoot);
  return found.filter((path) => path !== workspaceRoot && inside(path, workspaceRoot));
}
function linkedGitDirectories(workspaceRoot) {
  const dotGit = lstatOrNull(join(workspaceRoot, ".git"));
  if (dotGit === null || dotGit.isDirectory()) return [];
  return gitLocationsOf(workspaceRoot).filter((path) => !inside(path, workspaceRoot));
}
function gitLocationsOf(workspaceRoot) {
  const paths = [];
  const add = (path) => {
    if (path !== null && !paths.includes(path)) paths.push(path);
  };
  const dotGit = join(workspaceRoot, ".git");
  const stat = lstatOrNull(dotGit);
  if (stat === null) return paths;
  let gitDir;
  if (stat.isSymbolicLink()) gitDir = realOrNull(dotGit);
  else {
    add(dotGit);
    if (!stat.isFile()) return paths;
    const target = gitFileTarget(dotGit);
    gitDir = target === null ? null : realOrNull(target);
  }
  add(gitDir);
  if (gitDir !== null) {
    const common = readTextOrNull(join(gitDir, "commondir"));
    if (common !== null) add(realOrNull(resolve(gitDir, common.trim())));
  }
  return paths;
}
function gitFileTarget(file) {
  const match = /^gitdir: (.+)$/m.exec(readTextOrNull(file) ?? "");
  return match === null ? null : resolve(dirname(file), match[1].trim());
}
function readTextOrNull(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
function realOrNull(path) {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
function inside(path, dir) {
  const rel = relative(dir, path);
  return rel === "" || !rel.startsWith("..") && !isAbsolute(rel);
}
function lstatOrNull(path) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

export {
  gitPathsOf,
  linkedGitDirectories
};

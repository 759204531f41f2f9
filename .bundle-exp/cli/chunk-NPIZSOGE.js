// src/infrastructure/sandbox/program-readable-paths.ts
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, sep } from "node:path";
function programReadablePaths(command, args, homeDirectory) {
  const paths = /* @__PURE__ */ new Set();
  for (const value of [command, ...args]) {
    if (!isAbsolute(value) || !existsSync(value)) continue;
    const folder = statSync(value).isDirectory() ? value : dirname(value);
    const modules = folder.indexOf(`${sep}node_modules`);
    const readable = modules >= 0 ? folder.slice(0, modules + `${sep}node_modules`.length) : folder;
    if (readable !== "/" && readable !== homeDirectory) paths.add(readable);
  }
  return [...paths];
}

export {
  programReadablePaths
};

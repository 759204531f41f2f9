import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, sep } from 'node:path';

/**
 * What a program a person configured (an MCP server, a hook) needs readable inside the sandbox,
 * whose home and /tmp are hidden: the folder of each absolute path among its command and
 * arguments, or, for a file inside a `node_modules` tree, that whole tree (Node resolves a
 * package's dependencies up through it). Never the home folder or `/` itself.
 */
export function programReadablePaths(
  command: string,
  args: readonly string[],
  homeDirectory: string,
): string[] {
  const paths = new Set<string>();
  for (const value of [command, ...args]) {
    if (!isAbsolute(value) || !existsSync(value)) continue;
    const folder = statSync(value).isDirectory() ? value : dirname(value);
    const modules = folder.indexOf(`${sep}node_modules`);
    const readable = modules >= 0 ? folder.slice(0, modules + `${sep}node_modules`.length) : folder;
    if (readable !== '/' && readable !== homeDirectory) paths.add(readable);
  }
  return [...paths];
}

import { hash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ProjectInstruction } from '../../core/context/project-instructions.js';

export const INSTRUCTION_FILE = 'AGENTS.md';
export const FALLBACK_INSTRUCTION_FILE = 'CLAUDE.md';

export type ReadProjectInstructionsOptions = {
  readonly workspace: string;
  readonly correxHome: string;
  /** The most text kept of one file (its digest covers all of it). Default 32 KiB. */
  readonly maxBytes?: number;
  /** The most nested AGENTS.md files recorded. Default 32. */
  readonly maxNested?: number;
  /** How deep below the workspace root nested files are looked for. Default 6. */
  readonly maxDepth?: number;
};

/** Folders no instruction file is looked for in: dependencies, build output, VCS data. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'build', 'target', 'vendor', '.venv']);

/**
 * The instruction files a new session records: `$CORREX_HOME/AGENTS.md`, the workspace root's
 * AGENTS.md (CLAUDE.md when there is none), and nested AGENTS.md files below it (bounded in
 * count, depth and size). Symbolic links are not followed, so a repository cannot make correx
 * read a file outside it. Read once, here; packs and replay use the record.
 */
export function readProjectInstructions(
  options: ReadProjectInstructionsOptions,
): ProjectInstruction[] {
  const maxBytes = options.maxBytes ?? 32 * 1024;
  const found: ProjectInstruction[] = [];
  const user = readRegular(join(options.correxHome, INSTRUCTION_FILE), maxBytes);
  if (user !== undefined)
    found.push({ scope: 'user', path: '$CORREX_HOME/AGENTS.md', directory: '', ...user });
  for (const name of [INSTRUCTION_FILE, FALLBACK_INSTRUCTION_FILE]) {
    const root = readRegular(join(options.workspace, name), maxBytes);
    if (root !== undefined) {
      found.push({ scope: 'workspace', path: name, directory: '', ...root });
      break;
    }
  }
  const nested: ProjectInstruction[] = [];
  const maxNested = options.maxNested ?? 32;
  const maxDepth = options.maxDepth ?? 6;
  const visit = (dir: string, depth: number) => {
    if (depth > maxDepth || nested.length >= maxNested) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (nested.length >= maxNested) return;
      if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
      const child = join(dir, entry.name);
      const file = readRegular(join(child, INSTRUCTION_FILE), maxBytes);
      const directory = relative(options.workspace, child);
      if (file !== undefined)
        nested.push({
          scope: 'directory',
          path: `${directory}/${INSTRUCTION_FILE}`,
          directory,
          ...file,
        });
      visit(child, depth + 1);
    }
  };
  visit(options.workspace, 1);
  return [...found, ...nested];
}

function readRegular(
  path: string,
  maxBytes: number,
): Pick<ProjectInstruction, 'sha256' | 'content' | 'truncated'> | undefined {
  try {
    if (!lstatSync(path).isFile()) return undefined;
    const bytes = readFileSync(path);
    const kept = bytes.subarray(0, maxBytes).toString('utf8');
    return {
      sha256: hash('sha256', bytes, 'hex'),
      content: kept,
      truncated: bytes.length > maxBytes,
    };
  } catch {
    return undefined;
  }
}

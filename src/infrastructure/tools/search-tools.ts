import { globTool, grepTool, listDirTool } from '../../core/tools/builtin-tools.js';
import { lstat, readdir } from 'node:fs/promises';
import { relative } from 'node:path';
import { visibleText } from '../../core/base/visible-text.js';
import { matchGlob } from '../../core/policies/path-glob.js';
import { DEFAULT_NEVER_READABLE } from '../../core/policies/workspace-policy.js';
import {
  DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  guardedExecutor,
  ToolFailure,
  type FileToolOptions,
} from './file-tools.js';
import { readRegularFileInside } from './verified-directory.js';
import { recheckTarget, type ToolExecutor } from './tool-executor.js';
import { buildReceipt } from './tool-receipt-builder.js';

const MAX_ENTRIES = 5000;
const MAX_GREP_FILE_BYTES = 4 * 1024 * 1024;
/** Directories never walked: version-control internals and dependency trees. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

/** Lists files under `root` (relative paths, sorted), never following symlinks. */
async function walk(root: string, limit: number): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.shift()!;
    const entries = await readdir(relative === '' ? root : `${root}/${relative}`, {
      withFileTypes: true,
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) pending.push(child);
      } else if (entry.isFile()) {
        files.push(child);
        if (files.length >= limit) return { files, truncated: true };
      }
    }
  }
  return { files, truncated: false };
}

async function directoryOf(
  options: FileToolOptions,
  raw: unknown,
  context: Parameters<ToolExecutor['execute']>[1],
): Promise<string> {
  // No path means the workspace root, which the session recorded as a real path when it began.
  if (raw === undefined) return context.roots.workspaceRoot;
  const { realPath, observed } = await recheckTarget(options.probe, raw, context);
  if (observed.kind !== 'directory')
    throw new ToolFailure(`${String(raw ?? '.')} is not a directory`);
  return realPath;
}

export function createListDirExecutor(options: FileToolOptions): ToolExecutor {
  return guardedExecutor(
    listDirTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const dir = await directoryOf(options, args.path, context);
      const entries = await readdir(dir, { withFileTypes: true });
      const lines = entries
        .map(
          (entry) =>
            `${visibleText(entry.name)}${entry.isDirectory() ? '/' : entry.isSymbolicLink() ? ' -> (symlink)' : ''}`,
        )
        .sort();
      return buildReceipt({
        outcome: 'succeeded',
        text: lines.join('\n'),
        startedAt,
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

export function createGlobExecutor(options: FileToolOptions): ToolExecutor {
  return guardedExecutor(
    globTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const dir = await directoryOf(options, args.path, context);
      const { files, truncated } = await walk(dir, MAX_ENTRIES * 10);
      const matches = files
        .filter((file) => matchGlob(String(args.pattern), file))
        .slice(0, MAX_ENTRIES);
      const note = truncated ? '\n[walk stopped early: too many files]' : '';
      return buildReceipt({
        outcome: 'succeeded',
        text: matches.map(visibleText).join('\n') + note,
        startedAt,
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

export function createGrepExecutor(options: FileToolOptions): ToolExecutor {
  return guardedExecutor(
    grepTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const dir = await directoryOf(options, args.path, context);
      let regex: RegExp;
      try {
        regex = new RegExp(String(args.pattern), args.ignoreCase === true ? 'i' : '');
      } catch (error) {
        throw new ToolFailure(`invalid regular expression: ${(error as Error).message}`);
      }
      const maxResults = typeof args.maxResults === 'number' ? args.maxResults : 500;
      const { files } = await walk(dir, MAX_ENTRIES * 10);
      const results: string[] = [];
      // Secrets' contents never reach a receipt: never-readable files are not searched.
      const secret = (file: string) => {
        const subject = relative(context.roots.workspaceRoot, `${dir}/${file}`);
        return (options.neverReadable ?? DEFAULT_NEVER_READABLE).some(
          (glob) =>
            !glob.startsWith('~') &&
            !glob.startsWith('/') &&
            matchGlob(glob, subject, { foldCase: true }),
        );
      };
      for (const file of files) {
        if (typeof args.glob === 'string' && !matchGlob(args.glob, file)) continue;
        if (secret(file)) continue;
        const info = await lstat(`${dir}/${file}`).catch(() => null);
        if (info === null || info.size > MAX_GREP_FILE_BYTES) continue;
        const bytes = await readRegularFileInside(`${dir}/${file}`, dir);
        if (bytes === null) continue; // swapped, moved out or special since the walk
        if (bytes.subarray(0, 8000).includes(0)) continue; // binary
        const lines = bytes.toString('utf8').split('\n');
        for (let index = 0; index < lines.length && results.length < maxResults; index++) {
          if (regex.test(lines[index]!))
            results.push(`${visibleText(file)}:${index + 1}:${lines[index]}`);
        }
        if (results.length >= maxResults) break;
      }
      return buildReceipt({
        outcome: 'succeeded',
        text: results.join('\n'),
        startedAt,
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

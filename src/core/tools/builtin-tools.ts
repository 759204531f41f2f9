import { z } from 'zod';
import { defineTool, type ToolDefinition } from './tool-contract.js';
import {
  replacedTextChange,
  wholeFileChange,
  type FileChange,
  type RecordedArgs,
} from './file-change.js';

const PathArg = z
  .string()
  .min(1)
  .max(4096)
  .describe('A path, relative to the workspace root or absolute; ~ is the home directory.');

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file, optionally only lines startLine..endLine (1-based, inclusive).',
  argsSchema: z.strictObject({
    path: PathArg,
    startLine: z.number().int().min(1).optional(),
    endLine: z.number().int().min(1).optional(),
  }),
  paramRoles: { path: 'PATH' },
  capabilities: ['READ_ONLY'],
  defaultTier: 'T0',
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create or overwrite a file with the given content. Overwriting requires having read the file first.',
  argsSchema: z.strictObject({ path: PathArg, content: z.string().max(4_000_000) }),
  paramRoles: { path: 'PATH' },
  capabilities: ['WRITES_FILES'],
  defaultTier: 'T1',
  idempotent: true,
  describeChange: wholeFileChange,
});

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace exactly one occurrence of `search` with `replace` in a file. Fails if the text is absent or occurs more than once.',
  argsSchema: z.strictObject({
    path: PathArg,
    search: z.string().min(1).max(1_000_000),
    replace: z.string().max(1_000_000),
  }),
  paramRoles: { path: 'PATH' },
  capabilities: ['WRITES_FILES'],
  defaultTier: 'T1',
  describeChange: replacedTextChange,
});

export const listDirTool = defineTool({
  name: 'list_dir',
  description: 'List the entries of a directory (name and kind), sorted by name.',
  argsSchema: z.strictObject({ path: PathArg }),
  paramRoles: { path: 'PATH' },
  capabilities: ['READ_ONLY'],
  defaultTier: 'T0',
});

export const globTool = defineTool({
  name: 'glob',
  description: 'Find files under a directory whose relative path matches a glob (`**`, `*`, `?`).',
  argsSchema: z.strictObject({ pattern: z.string().min(1).max(1024), path: PathArg.optional() }),
  paramRoles: { path: 'PATH' },
  capabilities: ['READ_ONLY'],
  defaultTier: 'T0',
});

export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search files under a directory for a regular expression; returns file:line:text matches.',
  argsSchema: z.strictObject({
    pattern: z.string().min(1).max(1024),
    path: PathArg.optional(),
    glob: z.string().min(1).max(1024).optional(),
    ignoreCase: z.boolean().optional(),
    maxResults: z.number().int().min(1).max(10_000).optional(),
  }),
  paramRoles: { path: 'PATH' },
  capabilities: ['READ_ONLY'],
  defaultTier: 'T0',
});

export const execTool = defineTool({
  name: 'exec',
  description:
    'Run a program: either `argv` (no shell) or a shell `command` line. Runs in the workspace (or `cwd` inside it) with a scrubbed environment, a timeout and an output cap.',
  argsSchema: z
    .strictObject({
      command: z.string().min(1).max(65536).optional(),
      argv: z.array(z.string().max(65536)).min(1).max(1024).optional(),
      cwd: PathArg.optional(),
      timeoutMs: z.number().int().min(1).max(600_000).optional(),
    })
    .refine(
      (args) => (args.command === undefined) !== (args.argv === undefined),
      'give exactly one of `command` or `argv`',
    ),
  paramRoles: { command: 'COMMAND', argv: 'COMMAND', cwd: 'PATH' },
  capabilities: ['EXECUTES'],
  defaultTier: 'T2',
});

export const httpFetchTool = defineTool({
  name: 'http_fetch',
  description:
    'Fetch a URL (GET or HEAD) from an allowlisted host; redirects are followed only to allowlisted hosts.',
  argsSchema: z.strictObject({
    url: z.string().min(1).max(8192),
    method: z.enum(['GET', 'HEAD']).optional(),
  }),
  paramRoles: { url: 'URL' },
  capabilities: ['NETWORK', 'READ_ONLY'],
  defaultTier: 'T3',
});

export const copyFileTool = defineTool({
  name: 'copy_file',
  description: 'Copy a file to a destination path.',
  argsSchema: z.strictObject({ source: PathArg, destination: PathArg }),
  paramRoles: { source: 'SOURCE_PATH', destination: 'PATH' },
  capabilities: ['WRITES_FILES', 'CONTENT_FROM_SOURCE'],
  defaultTier: 'T1',
});

export const moveFileTool = defineTool({
  name: 'move_file',
  description: 'Move (rename) a file to a destination path.',
  // The source is removed, so it is a mutated target (PATH), not merely a source.
  argsSchema: z.strictObject({ source: PathArg, destination: PathArg }),
  paramRoles: { source: 'PATH', destination: 'PATH' },
  capabilities: ['WRITES_FILES', 'CONTENT_FROM_SOURCE'],
  defaultTier: 'T1',
});

/** Every built-in tool contract, by name. */
export const builtinTools: readonly ToolDefinition[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  execTool,
  httpFetchTool,
  copyFileTool,
  moveFileTool,
] as readonly ToolDefinition[];

const changeDescribers: ReadonlyMap<
  string,
  NonNullable<ToolDefinition['describeChange']>
> = new Map(
  builtinTools.flatMap((tool) =>
    tool.describeChange === undefined ? [] : [[tool.name, tool.describeChange] as const],
  ),
);

/** Whether the built-in tool named `tool` describes the file change its arguments make. */
export function describesFileChange(tool: string): boolean {
  return changeDescribers.has(tool);
}

/**
 * The file change a successful call of the built-in tool `tool` made (or proposes) with these
 * recorded arguments; undefined for a tool that describes none, or arguments that show none.
 */
export function builtinFileChange(tool: string, args: RecordedArgs): FileChange | undefined {
  return changeDescribers.get(tool)?.(args);
}

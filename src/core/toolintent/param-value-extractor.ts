import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import {
  hasCapability,
  isMutatingTool,
  type ParamRole,
  type ToolDefinition,
} from '../tools/tool-contract.js';
import { resolveToolPath, type ResolvedToolPath, type ToolPathRoots } from '../tools/tool-path.js';
import {
  analyzeExecCall,
  type ExecAnalysis,
  type ExecAnalysisOptions,
} from './shell-analysis/index.js';

/** A path the call names, resolved by ToolPath.resolve. */
export type ExtractedPath = {
  readonly role: 'PATH' | 'SOURCE_PATH';
  readonly param: string;
  /** `argument` for a declared role; `command` for a path found inside an exec command line; `sniffed` for role-less tools. */
  readonly origin: 'argument' | 'command' | 'sniffed';
  readonly path: ResolvedToolPath;
  /** True for write targets: PATH arguments of mutating tools, and paths an exec command writes. */
  readonly write: boolean;
  /** An exec command edits this file in place (sed -i), so read-before-write holds for it. */
  readonly editsInPlace?: true;
};

export type ExtractedValues = {
  /** Every PATH and SOURCE_PATH value (containment and existence rules). */
  readonly candidatePaths: readonly ExtractedPath[];
  /** Only the paths the call mutates (write-target rules). */
  readonly writeTargets: readonly ExtractedPath[];
  readonly urls: readonly { readonly param: string; readonly raw: string }[];
  /** Model-supplied paths ToolPath.resolve refused (NUL bytes, too long, `~user`). */
  readonly rejectedPaths: readonly {
    readonly param: string;
    readonly raw: string;
    readonly message: string;
  }[];
  /** The static analysis of an exec call, when the tool has a COMMAND argument. */
  readonly exec: ExecAnalysis | null;
};

const PATH_LIKE = /^(~|\.{1,2})?\/|^~$|^\.\.?$|^[\w.-]+\/[\w./-]*$/;

/**
 * Pulls every security-relevant value out of a call's parsed arguments. Candidate paths are
 * all PATH and SOURCE_PATH arguments; write targets only the PATH arguments of mutating tools
 * (plus what an exec command line writes). A tool that declares no roles has its path-like
 * strings sniffed, so an undeclared tool is judged, not waved through.
 */
export function extractParamValues(
  tool: ToolDefinition,
  args: Readonly<Record<string, unknown>>,
  roots: ToolPathRoots,
  policy: WorkspacePolicy,
  execOptions: ExecAnalysisOptions = {},
): ExtractedValues {
  const candidatePaths: ExtractedPath[] = [];
  const urls: { param: string; raw: string }[] = [];
  const rejectedPaths: { param: string; raw: string; message: string }[] = [];
  const mutating = isMutatingTool(tool);
  // An exec call's `cwd` is where it runs, not what it writes; its writes come from the command analysis.
  const writesFiles = hasCapability(tool, 'WRITES_FILES');
  const addPath = (
    role: 'PATH' | 'SOURCE_PATH',
    param: string,
    raw: unknown,
    origin: ExtractedPath['origin'],
    write: boolean,
    base?: string,
    editsInPlace = false,
  ) => {
    const result = resolveToolPath(raw, roots, base);
    if (result.ok)
      candidatePaths.push({
        role,
        param,
        origin,
        path: result.path,
        write,
        ...(editsInPlace ? { editsInPlace: true as const } : {}),
      });
    else rejectedPaths.push({ param, raw: String(raw), message: result.rejection.message });
  };

  const roles = Object.entries(tool.paramRoles) as [string, ParamRole][];
  if (roles.length === 0) {
    for (const [param, value] of Object.entries(args).sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (const text of stringsOf(value)) {
        if (/^https?:\/\//i.test(text)) urls.push({ param, raw: text });
        else if (PATH_LIKE.test(text) || text.includes('\0'))
          addPath('PATH', param, text, 'sniffed', mutating);
      }
    }
  }
  let exec: ExecAnalysis | null = null;
  for (const [param, role] of roles) {
    const value = args[param];
    if (value === undefined) continue;
    if (role === 'PATH' || role === 'SOURCE_PATH') {
      for (const text of stringsOf(value))
        addPath(role, param, text, 'argument', role === 'PATH' && writesFiles);
    } else if (role === 'URL') {
      for (const text of stringsOf(value)) urls.push({ param, raw: text });
    } else if (role === 'COMMAND' && exec === null) {
      exec = analyzeExecCall(args, policy, execOptions);
    }
  }
  if (exec !== null) {
    const cwdParam = roles.find(([, role]) => role === 'PATH')?.[0];
    const cwdRaw = cwdParam === undefined ? undefined : args[cwdParam];
    const cwd = typeof cwdRaw === 'string' ? resolveToolPath(cwdRaw, roots) : undefined;
    const base = cwd?.ok === true ? cwd.path.absolute : roots.workspaceRoot;
    const edits = new Set(exec.editPaths);
    for (const raw of exec.writePaths)
      addPath('PATH', 'command', raw, 'command', true, base, edits.has(raw));
    for (const raw of exec.readPaths)
      addPath('SOURCE_PATH', 'command', raw, 'command', false, base);
    for (const raw of exec.urls) urls.push({ param: 'command', raw });
  }
  return {
    candidatePaths,
    writeTargets: candidatePaths.filter((path) => path.write),
    urls,
    rejectedPaths,
    exec,
  };
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

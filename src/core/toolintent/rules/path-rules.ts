import { layeredGet } from '../../base/layered-record.js';
import { globStaticPrefix, matchGlob } from '../../policies/path-glob.js';
import { SANDBOX_PRIVATE_FOLDERS } from '../../policies/sandbox-profile.js';
import { hasCapability } from '../../tools/tool-contract.js';
import { isPathInside, relativeInside, type ToolPathRoots } from '../../tools/tool-path.js';
import { finding } from '../finding.js';
import type { ToolCallContext, ToolCallRule } from '../tool-call-rule.js';
import type { Finding, WorldObservation } from '../toolintent-events.js';
import type { ExtractedPath } from '../param-value-extractor.js';
import { FILE_TOOL_TARGETS_REGULAR } from '../toolintent-flags.js';

/** The recorded observation of a path, or undefined when the probe has not observed it. */
export function observationOf(
  context: ToolCallContext,
  path: ExtractedPath,
): WorldObservation | undefined {
  return layeredGet(context.view.observations, path.path.absolute);
}

/**
 * True when a never-writable pattern matches the path. Compared case-folded and NFC-normalized,
 * on both the lexical and the real path, so case-insensitive filesystems and Unicode lookalike
 * spellings of `.git/hooks` are caught too.
 */
export function isNeverWritable(
  patterns: readonly string[],
  roots: ToolPathRoots,
  paths: readonly string[],
): string | undefined {
  for (const pattern of patterns) {
    for (const path of paths) {
      let subject: string | undefined;
      let glob = pattern;
      if (pattern.startsWith('~/')) {
        subject = relativeInside(path, roots.homeDirectory);
        glob = pattern.slice(2);
      } else if (pattern.startsWith('/')) {
        subject = path.slice(1);
        glob = pattern.slice(1);
      } else {
        subject = relativeInside(path, roots.workspaceRoot);
      }
      if (subject !== undefined && matchGlob(glob, subject, { foldCase: true })) return pattern;
    }
  }
  return undefined;
}

/**
 * The first never-writable pattern whose fixed prefix lies strictly inside directory `real`
 * (so deleting, moving or chmod-ing the directory would change it), e.g. `.git/hooks` inside
 * the workspace root for `rm -rf .`. Patterns with no fixed prefix (leading `**`) are skipped.
 */
function protectedInside(
  patterns: readonly string[],
  roots: ToolPathRoots,
  real: string,
): string | undefined {
  for (const pattern of patterns) {
    const absolute = pattern.startsWith('~/')
      ? `${roots.homeDirectory}/${globStaticPrefix(pattern.slice(2))}`
      : pattern.startsWith('/')
        ? globStaticPrefix(pattern)
        : `${roots.workspaceRoot}/${globStaticPrefix(pattern)}`;
    const prefix = absolute.replace(/\/+$/, '');
    if (prefix === roots.workspaceRoot || prefix === roots.homeDirectory || prefix === '') continue;
    const folded = (text: string) => text.normalize('NFC').toLowerCase();
    if (folded(prefix) !== folded(real) && isPathInside(folded(prefix), folded(real)))
      return pattern;
  }
  return undefined;
}

/**
 * Whether the sandbox binds a never-writable pattern read-only: a literal workspace path, with an
 * optional trailing `/**` (the same test as protectedWorkspacePaths in the bubblewrap profile).
 */
export function isSandboxMounted(pattern: string): boolean {
  if (pattern.startsWith('~') || pattern.startsWith('/')) return false;
  const literal = pattern.endsWith('/**') ? pattern.slice(0, -3) : pattern;
  return literal !== '' && !/[*?[\]{}]/.test(literal);
}

/**
 * Under confinement (flag `confinement-by-construction` with a sandbox) what a command reads is
 * decided by the sandbox's read view, not by the words the analysis took for paths: such a read
 * is named for the person and checked against never-readable only.
 */
function readViewDecides(context: ToolCallContext, target: ExtractedPath): boolean {
  return context.values.exec?.confined === true && target.origin === 'command' && !target.write;
}

/**
 * Under confinement a command's write into the sandbox's private /tmp (SANDBOX_PRIVATE_FOLDERS)
 * never reaches the host, unless that folder holds the workspace (`rm -rf ../*` from a workspace
 * under /tmp reaches the workspace itself).
 */
function privateScratch(context: ToolCallContext, target: ExtractedPath, real: string): boolean {
  if (context.values.exec?.confined !== true || target.origin !== 'command') return false;
  const { workspaceRoot, homeDirectory } = context.view.roots;
  // The home is private inside the sandbox too, but a write there means to change the person's
  // home: it stays a refusal, wherever the home lies.
  return [target.path.absolute, real].every(
    (path) =>
      SANDBOX_PRIVATE_FOLDERS.some((folder) => path !== folder && isPathInside(path, folder)) &&
      !isPathInside(workspaceRoot, path) &&
      !isPathInside(path, homeDirectory),
  );
}

const PATH_CONTAINMENT = 'path-containment';

/**
 * PathContainment: writes only inside the workspace, judged on the observed real path (every
 * symlink resolved, dangling ones included) and on the lexical path; never onto a
 * never-writable path; never through a hard link shared with another file. Reads outside the
 * workspace are ASK at T3. An exec call's working directory must be inside the workspace.
 */
export const pathContainmentRule: ToolCallRule = {
  id: PATH_CONTAINMENT,
  appliesTo: (context) =>
    context.values.candidatePaths.length > 0 || context.values.rejectedPaths.length > 0,
  evaluate(context) {
    const findings: Finding[] = [];
    const { roots } = context.view;
    for (const rejected of context.values.rejectedPaths) {
      findings.push(
        finding(
          PATH_CONTAINMENT,
          'block',
          'invalid_path',
          `${rejected.param}: ${rejected.message}`,
          'T3',
        ),
      );
    }
    for (const target of context.values.candidatePaths) {
      const observation = observationOf(context, target);
      const label = `${target.param} ${JSON.stringify(target.path.raw)}`;
      if (observation === undefined) {
        findings.push(
          finding(
            PATH_CONTAINMENT,
            'block',
            'observation_missing',
            `${label} was not observed by the WorldProbe; refusing to judge it unseen`,
            'T3',
          ),
        );
        continue;
      }
      const real = observation.realPath;
      const lexicalInside = isPathInside(target.path.absolute, roots.workspaceRoot);
      const realInside = isPathInside(real, roots.workspaceRoot);
      if (
        target.write ||
        (target.role === 'PATH' &&
          target.origin === 'argument' &&
          hasCapability(context.tool, 'EXECUTES'))
      ) {
        if (!lexicalInside && privateScratch(context, target, real)) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              'info',
              'private_scratch',
              `${label} lies in the sandbox's private ${target.path.absolute.split('/').slice(0, 2).join('/')}, discarded when the call ends`,
              'T2',
            ),
          );
          continue;
        }
        if (!lexicalInside) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              'block',
              'outside_workspace',
              `${label} resolves to ${target.path.absolute}, outside the workspace`,
              'T3',
            ),
          );
          continue;
        }
        if (!realInside) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              'block',
              'symlink_escape',
              `${label} is inside the workspace but a symlink leads to ${real}, outside it`,
              'T3',
            ),
          );
          continue;
        }
        if (!target.write) continue;
        const protectedBy = isNeverWritable(context.policy.neverWritable, roots, [
          target.path.absolute,
          real,
        ]);
        if (protectedBy !== undefined) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              'block',
              'never_writable',
              `${label} matches the never-writable path ${protectedBy}`,
              'T3',
            ),
          );
          continue;
        }
        // Under confinement a protected path the sandbox binds read-only (a literal one) cannot
        // be changed by a command on the folder holding it (`find . -delete`, `mkdir -p .`).
        const patterns =
          context.values.exec?.confined === true && target.origin === 'command'
            ? context.policy.neverWritable.filter((pattern) => !isSandboxMounted(pattern))
            : context.policy.neverWritable;
        const contained =
          observation.kind === 'directory' ? protectedInside(patterns, roots, real) : undefined;
        if (contained !== undefined) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              'block',
              'contains_never_writable',
              `${label} is a directory holding the never-writable path ${contained}; removing or moving it would change that path too`,
              'T3',
            ),
          );
          continue;
        }
        if (observation.kind === 'file' && (observation.linkCount ?? 1) > 1) {
          findings.push(
            finding(
              PATH_CONTAINMENT,
              'block',
              'hard_link',
              `${label} has ${observation.linkCount} hard links; writing it would change another file too`,
              'T3',
            ),
          );
        }
      } else if ((!lexicalInside || !realInside) && !readViewDecides(context, target)) {
        findings.push(
          finding(
            PATH_CONTAINMENT,
            'ask',
            'read_outside_workspace',
            `${label} reads ${real}, outside the workspace`,
            'T3',
          ),
        );
      }
    }
    return findings;
  },
};

const REFERENCE_EXISTS = 'reference-exists';

/** Arguments that must name something existing, per tool (what the model refers to, not what it creates). */
const EXISTING_PARAMS: Readonly<Record<string, readonly string[]>> = {
  read_file: ['path'],
  edit_file: ['path'],
  list_dir: ['path'],
  glob: ['path'],
  grep: ['path'],
  copy_file: ['source'],
  move_file: ['source'],
};

/**
 * ReferenceExists: a path the call reads or edits must exist (per the recorded observation).
 * SOURCE_PATH values always must; exec command-line reads must too. A missing reference is a
 * BLOCK with a message the model can act on, not a crash inside the tool; a device, socket or
 * FIFO (reading one can block forever or never end) is ASK.
 */
export const referenceExistsRule: ToolCallRule = {
  id: REFERENCE_EXISTS,
  appliesTo: (context) => context.values.candidatePaths.length > 0,
  evaluate(context) {
    const mustExist = EXISTING_PARAMS[context.tool.name] ?? [];
    const findings: Finding[] = [];
    for (const target of context.values.candidatePaths) {
      if (!(target.role === 'SOURCE_PATH' || mustExist.includes(target.param))) continue;
      // A word a confined command reads may be an option's value (`-colorspace Gray`): named, not judged.
      if (readViewDecides(context, target)) continue;
      const observation = observationOf(context, target);
      if (observation !== undefined && observation.kind === 'missing') {
        findings.push(
          finding(
            REFERENCE_EXISTS,
            'block',
            'missing_reference',
            `${target.param} ${JSON.stringify(target.path.raw)} does not exist`,
          ),
        );
      }
      // Under the flag, target-kind blocks a file tool on a special file instead.
      const refusedElsewhere =
        context.flags.has(FILE_TOOL_TARGETS_REGULAR.name) &&
        !hasCapability(context.tool, 'EXECUTES');
      if (observation !== undefined && observation.kind === 'other' && !refusedElsewhere) {
        findings.push(
          finding(
            REFERENCE_EXISTS,
            'ask',
            'special_file',
            `${target.param} ${JSON.stringify(target.path.raw)} is a device, socket or FIFO, not a regular file`,
            'T2',
          ),
        );
      }
    }
    return findings;
  },
};

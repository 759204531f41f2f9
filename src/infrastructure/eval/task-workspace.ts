import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import {
  runHardenedGit,
  runHardenedGitBytes,
  type GitLocation,
} from '../workspace/hardened-git.js';

/**
 * Where an eval task's workspace comes from: a folder copied for each run, or the tree of a
 * commit of a git repository, resolved once when the suite is loaded (a branch that moves
 * during the evaluation does not change what the runs see) and named in the report.
 */
export type TaskWorkspaceSource =
  | { readonly kind: 'folder'; readonly folder: string }
  | {
      readonly kind: 'git';
      /** The repository folder (a work tree holding `.git`, or a bare repository). */
      readonly repository: string;
      /** The reference as the suite names it (a commit, branch or tag). */
      readonly ref: string;
      /** The commit it resolved to: the run is reproducible from it. */
      readonly commit: string;
    };

/** A task's git workspace cannot be read: no repository, a reference that does not resolve, a tree that cannot be written. */
export class EvalGitReferenceError extends CorrexError {
  constructor(message: string) {
    super('eval_git_reference', message);
  }
}

/**
 * The repository's git directory, passed explicitly: git never discovers a repository on its
 * own, and every git command runs hardened (no hooks, fsmonitor, filters, system or global
 * configuration: see hardened-git.ts), so the repository's configuration runs nothing.
 */
function locationOf(repository: string): GitLocation {
  const dotGit = join(repository, '.git');
  return { gitDir: existsSync(dotGit) ? dotGit : repository, workTree: repository };
}

/** `ref` of the repository at `repository`, resolved to its commit; a named error when it does not resolve. */
export function resolveGitWorkspace(
  repository: string,
  ref: string,
): Extract<TaskWorkspaceSource, { kind: 'git' }> {
  if (!existsSync(repository))
    throw new EvalGitReferenceError(`no git repository at ${repository}`);
  // An option-like reference would be read as an option of git.
  if (ref.startsWith('-') || /[\s\0]/.test(ref))
    throw new EvalGitReferenceError(`${JSON.stringify(ref)} is not a git reference`);
  let commit: string;
  try {
    commit = runHardenedGit(locationOf(repository), [
      'rev-parse',
      '--verify',
      '--quiet',
      `${ref}^{commit}`,
    ]);
  } catch {
    throw new EvalGitReferenceError(
      `git reference ${JSON.stringify(ref)} does not name a commit of the repository at ${repository}`,
    );
  }
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit))
    throw new EvalGitReferenceError(
      `git reference ${JSON.stringify(ref)} of ${repository} resolved to ${JSON.stringify(commit)}, not a commit`,
    );
  return { kind: 'git', repository, ref, commit };
}

/**
 * Writes the task's workspace into `target` (a fresh folder): the folder copied, or the
 * commit's tree written from its blobs as git stores them (`ls-tree` and `cat-file`: no
 * checkout, so no filter, hook or attribute of the repository applies, and nothing is run in
 * `target`). Regular files keep their executable bit, symbolic links are written last (no file
 * is ever written through one), a submodule is an empty folder as a checkout without it leaves.
 */
export function materialiseTaskWorkspace(source: TaskWorkspaceSource, target: string): void {
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new EvalGitReferenceError(`the run's folder ${target} exists and is not empty`);
  if (source.kind === 'folder') {
    cpSync(source.folder, target, { recursive: true });
    return;
  }
  const location = locationOf(source.repository);
  const entries = treeEntries(location, source.commit);
  const blobs = readBlobs(
    location,
    entries.filter((entry) => entry.type === 'blob').map((entry) => entry.object),
  );
  mkdirSync(target, { recursive: true });
  const links: { path: string; target: string }[] = [];
  for (const entry of entries) {
    const path = join(target, entry.path);
    if (entry.type === 'commit') {
      mkdirSync(path, { recursive: true });
      continue;
    }
    const bytes = blobs.get(entry.object)!;
    if (entry.mode === '120000') {
      links.push({ path, target: bytes.toString('utf8') });
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes, { flag: 'wx' });
    chmodSync(path, entry.mode === '100755' ? 0o755 : 0o644);
  }
  for (const link of links) {
    mkdirSync(dirname(link.path), { recursive: true });
    symlinkSync(link.target, link.path);
  }
}

type TreeEntry = {
  readonly mode: string;
  readonly type: 'blob' | 'commit';
  readonly object: string;
  readonly path: string;
};

/** The commit's files, every path checked to stay inside the folder it is written to. */
function treeEntries(location: GitLocation, commit: string): TreeEntry[] {
  const listing = runHardenedGitBytes(location, ['ls-tree', '-r', '-z', '--full-tree', commit]);
  const entries: TreeEntry[] = [];
  for (const record of listing.toString('utf8').split('\0')) {
    if (record === '') continue;
    const match = /^(\d{6}) (blob|commit) ([0-9a-f]+)\t(.+)$/s.exec(record);
    if (match === null)
      throw new EvalGitReferenceError(
        `commit ${commit}: unreadable tree entry ${JSON.stringify(record)}`,
      );
    const [, mode, type, object, path] = match;
    const segments = path!.split('/');
    // A crafted tree could name a path that leaves the folder or writes a git directory.
    if (
      path!.startsWith('/') ||
      segments.some(
        (segment) =>
          segment === '' || segment === '.' || segment === '..' || segment.toLowerCase() === '.git',
      )
    )
      throw new EvalGitReferenceError(
        `commit ${commit} holds a path that cannot be written: ${JSON.stringify(path)}`,
      );
    if (type === 'blob' && !['100644', '100755', '120000'].includes(mode!))
      throw new EvalGitReferenceError(`commit ${commit}: ${path} has an unknown mode ${mode}`);
    entries.push({ mode: mode!, type: type as 'blob' | 'commit', object: object!, path: path! });
  }
  return entries;
}

/** Each blob's bytes, as stored (`cat-file --batch`: no conversion of any kind). */
function readBlobs(location: GitLocation, objects: readonly string[]): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  const wanted = [...new Set(objects)];
  if (wanted.length === 0) return blobs;
  const output = runHardenedGitBytes(
    location,
    ['cat-file', '--batch'],
    Buffer.from(`${wanted.join('\n')}\n`),
  );
  let at = 0;
  for (const object of wanted) {
    const end = output.indexOf(0x0a, at);
    const header = output.subarray(at, end).toString('utf8');
    const match = /^([0-9a-f]+) blob (\d+)$/.exec(header);
    if (match === null || match[1] !== object)
      throw new EvalGitReferenceError(`blob ${object}: unexpected ${JSON.stringify(header)}`);
    const size = Number(match[2]);
    blobs.set(object, output.subarray(end + 1, end + 1 + size));
    at = end + 1 + size + 1;
  }
  return blobs;
}

import { execFileSync } from 'node:child_process';
import { CorrexError } from '../../core/base/correx-error.js';

/** A git command correx runs itself failed (not a repository, a branch in the way...). */
export class WorktreeError extends CorrexError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('worktree_failed', detail, options);
  }
}

/**
 * Where a git command acts: the git directory and work tree correx recorded, passed as
 * `GIT_DIR`/`GIT_WORK_TREE` so that git never discovers a repository through a workspace's
 * `.git` (a file the model may have rewritten to point at a repository of its own).
 */
export type GitLocation = {
  readonly gitDir: string;
  readonly workTree: string;
};

/**
 * Settings that make git run a program, or reach beyond the repository, switched off for
 * every command correx runs on the host. Command-line settings win over every file and
 * travel to the git processes git starts itself (a checkout's, a submodule's).
 */
export const HARDENED_GIT_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.sshCommand=false',
  'core.askPass=false',
  'core.editor=false',
  'core.pager=cat',
  'core.attributesFile=/dev/null',
  'core.untrackedCache=false',
  'credential.helper=',
  'diff.external=',
  'diff.ignoreSubmodules=all',
  'status.submoduleSummary=false',
  'submodule.recurse=false',
  'protocol.allow=never',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'merge.verifySignatures=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'safe.bareRepository=explicit',
];

/**
 * The environment of a hardened git: the caller's without any `GIT_*` variable, no system or
 * global configuration (only the repository's own, which lives in the recorded git
 * directory), no prompts.
 */
export function hardenedGitEnvironment(location: GitLocation | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('GIT_') && key !== 'SSH_ASKPASS') env[key] = value;
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  env.GIT_ATTR_NOSYSTEM = '1';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_OPTIONAL_LOCKS = '0';
  if (location !== null) {
    env.GIT_DIR = location.gitDir;
    env.GIT_WORK_TREE = location.workTree;
  }
  return env;
}

/**
 * The one way correx runs git on the host. With a location, git acts on exactly that git
 * directory and work tree; `discoverFrom` is only for finding a repository at a session's
 * start, before anything of the model's exists, and still runs without system or global
 * configuration and with every program-running setting off.
 */
export function runHardenedGit(
  where: GitLocation | { readonly discoverFrom: string },
  args: readonly string[],
): string {
  const location = 'gitDir' in where ? where : null;
  const cwd =
    location === null ? (where as { discoverFrom: string }).discoverFrom : location.workTree;
  const env = hardenedGitEnvironment(location);
  const overrides = [...HARDENED_GIT_CONFIG, ...driverOverrides(cwd, env)].flatMap((setting) => [
    '-c',
    setting,
  ]);
  try {
    return execFileSync('git', [...overrides, ...args], {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new WorktreeError(`git ${args.join(' ')} in ${cwd} failed: ${stderr}`, { cause: error });
  }
}

/**
 * The person's own name and email from their global git configuration (the home is never
 * the model's to write), read by themselves: nothing else of that file applies to correx's
 * git. Empty where none is set.
 */
export function readGlobalIdentity(): { readonly name?: string; readonly email?: string } {
  const env = hardenedGitEnvironment(null);
  delete env.GIT_CONFIG_GLOBAL;
  try {
    const lines = execFileSync(
      'git',
      ['config', '--global', '--get-regexp', '^user\\.(name|email)$'],
      { cwd: '/', env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    ).split('\n');
    const identity: { name?: string; email?: string } = {};
    for (const line of lines) {
      const match = /^user\.(name|email) (.+)$/.exec(line.trim());
      if (match !== null) identity[match[1] as 'name' | 'email'] = match[2]!;
    }
    return identity;
  } catch {
    return {};
  }
}

/** Configuration keys that name a program git runs for a file's attributes. */
const DRIVER_KEY = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|command|textconv|driver)$/;

/**
 * Every filter, diff and merge driver the repository's configuration defines, emptied: a file's
 * attributes (`.gitattributes` is the model's to write) can then name no program for git to
 * run. A required filter is made optional, so the file is taken as it is.
 */
function driverOverrides(cwd: string, env: NodeJS.ProcessEnv): string[] {
  let names: string[];
  try {
    names = execFileSync(
      'git',
      [
        ...HARDENED_GIT_CONFIG.flatMap((setting) => ['-c', setting]),
        'config',
        '--name-only',
        '--get-regexp',
        DRIVER_KEY.source,
      ],
      { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    )
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    // None defined (git exits 1), or no repository yet: nothing to empty.
    return [];
  }
  const settings: string[] = [];
  for (const name of names) {
    const match = DRIVER_KEY.exec(name);
    if (match === null) continue;
    settings.push(`${name}=`);
    if (match[1] === 'filter') settings.push(`filter.${match[2]}.required=false`);
  }
  return settings;
}

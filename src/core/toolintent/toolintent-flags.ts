import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

export const WRITE_BUDGET = defineBehaviourFlag({
  name: 'write-budget',
  description:
    "A file write that would carry the session's written content past the policy's writeBudgetBytes is blocked (rule write-budget).",
});

/** A path the probe saw changing while it looked (changedDuringObservation) is blocked, never judged. */
export const UNSTABLE_OBSERVATION_BLOCKS = defineBehaviourFlag({
  name: 'unstable-observation-blocks',
  description:
    'reference-exists blocks a call whose target changed during observation (the probe saw it swapped twice)',
});

/**
 * A file tool's targets must be regular files (or missing, for a write): a FIFO, socket or device
 * is blocked at assessment instead of asked at T2, and so is a write whose target is a folder.
 */
export const FILE_TOOL_TARGETS_REGULAR = defineBehaviourFlag({
  name: 'file-tool-targets-regular',
  description:
    'reference-exists blocks a file tool (not exec) whose target is a FIFO, socket or device (reading one can block forever), or whose write target is a folder',
});

/** A path with a lone UTF-16 surrogate (assessed as one name, created as U+FFFD) is blocked. */
export const LONE_SURROGATE_PATHS_BLOCKED = defineBehaviourFlag({
  name: 'lone-surrogate-paths-blocked',
  description:
    'reference-exists blocks a path holding a lone UTF-16 surrogate: the disk would get a different name than the one assessed',
});

/**
 * A new session's egress allowlist starts as the recorded policy's `egressAllowlist`: an
 * `egress_allowlist_changed` by `policy` follows its start. Without it the allowlist starts empty.
 */
export const EGRESS_ALLOWLIST_FROM_POLICY = defineBehaviourFlag({
  name: 'egress-allowlist-from-policy',
  description:
    "a session's egress allowlist is seeded at its start from the recorded policy's egressAllowlist (an egress_allowlist_changed by policy)",
});

/** A stale-write finding holds the hash the model read and the hash on disk now. */
export const STALE_WRITE_HASHES = defineBehaviourFlag({
  name: 'stale-write-hashes',
  description:
    'a stale-write finding records the content hash at the last read and the hash observed now (finding.hashes)',
});

/**
 * `sandbox-containment` (issue #17): with a sandbox active, exec analysis classifies and records
 * instead of refusing what the sandbox confines; without one, what the parser cannot judge is
 * asked, not blocked. Shell text (here-documents, loops, `if`, `cd <dir> &&`) is parsed and judged
 * command by command. Which stops stay final is the table in exec-stop-classes.ts.
 */
export const SANDBOX_CONTAINMENT = defineBehaviourFlag({
  name: 'sandbox-containment',
  description:
    'exec analysis under a sandbox classifies and records; stops are final or liftable by policy data; here-documents, loops and cd are judged command by command',
});

/**
 * `exec-sibling-classification` (issue #25, low): `rg -z`, `rg --hostname-bin`, `python3
 * /dev/stdin` are judged like their refused siblings (`rg --pre`, `python3 -`), and `sed -i` on
 * an existing file is held to read-before-write.
 */
export const EXEC_SIBLING_CLASSIFICATION = defineBehaviourFlag({
  name: 'exec-sibling-classification',
  description:
    'rg -z/--hostname-bin and python3 /dev/stdin are judged like rg --pre and python3 -; sed -i is held to read-before-write',
});

/** `never-readable` (issue #17): read tools are refused the policy's never-readable paths. */
export const NEVER_READABLE = defineBehaviourFlag({
  name: 'never-readable',
  description:
    "read tools (and exec redirections) are refused paths matching the policy's neverReadable globs (.env, *.pem, id_rsa ...)",
});

/** A call is assessed only after the user's `pre_tool_use` hooks answered; their verdicts are findings. */
export const PRE_TOOL_USE_HOOKS = defineBehaviourFlag({
  name: 'pre-tool-use-hooks',
  description:
    "a call with pre_tool_use hooks configured waits for their recorded verdicts, which join the assessment's findings (block, raise the tier, or fail closed)",
});

/**
 * `exec-bash` (issue #17): a command line given as text runs as `bash -c` inside the sandbox
 * (before: `/bin/sh -c`), and the exec analysis reads it as bash reads it (shell-syntax.ts,
 * bash-syntax.ts); a nested `sh -c` line is still read as POSIX shell.
 */
export const EXEC_BASH = defineBehaviourFlag({
  name: 'exec-bash',
  description:
    "exec runs a command line as bash -c (was /bin/sh -c), refused when bash is missing; the analysis parses it as bash: $'…' decoded, [[ … ]], arrays; forms where bash evaluates a value as code are refused",
});

/**
 * `confinement-by-construction` (issue #41): under an active sandbox the sandbox is the policy.
 * Every stop the sandbox holds is recorded at T2 (any program runs, whatever its name); what it
 * cannot hold is still asked or refused (exec-stop-classes.ts, CONFINED_EXEC_STOPS): egress
 * beyond the allowlist, writes the profile refuses, protected paths, targets outside the
 * workspace. Reads a command names are not judged (the read view holds them); a write target
 * the shell computes is judged by its literal folder; long lines are parsed, not refused.
 */
export const CONFINEMENT_BY_CONSTRUCTION = defineBehaviourFlag({
  name: 'confinement-by-construction',
  description:
    'under a sandbox, exec stops the sandbox holds are recorded at T2; only egress, refused writes, protected paths and targets outside the workspace stop a call',
});

/**
 * `egress-asks-to-widen` (issue #41): under an active sandbox (with confinement-by-construction)
 * a command that names a host off the egress allowlist is asked at T3 as "needs network access
 * to HOST" instead of blocked; approving it lets that call reach the host through the proxy, and
 * "always" records a grant scoped to the host, after which the host is granted at T2.
 */
export const EGRESS_ASKS_TO_WIDEN = defineBehaviourFlag({
  name: 'egress-asks-to-widen',
  description:
    'under a sandbox, an exec naming a host off the egress allowlist asks at T3 (needs network access to HOST) instead of blocking; approved, the call reaches that host; a host grant makes it T2',
});

/** The behaviour flags plane-2 assessment branches on (see core/base/behaviour-flag.ts). */
export const toolIntentFlags: readonly BehaviourFlag[] = [
  WRITE_BUDGET,
  UNSTABLE_OBSERVATION_BLOCKS,
  FILE_TOOL_TARGETS_REGULAR,
  LONE_SURROGATE_PATHS_BLOCKED,
  EGRESS_ALLOWLIST_FROM_POLICY,
  STALE_WRITE_HASHES,
  SANDBOX_CONTAINMENT,
  EXEC_SIBLING_CLASSIFICATION,
  NEVER_READABLE,
  PRE_TOOL_USE_HOOKS,
  EXEC_BASH,
  CONFINEMENT_BY_CONSTRUCTION,
  EGRESS_ASKS_TO_WIDEN,
];

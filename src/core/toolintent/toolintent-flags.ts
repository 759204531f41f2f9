import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

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

/** The behaviour flags plane-2 assessment branches on (see core/base/behaviour-flag.ts). */
export const toolIntentFlags: readonly BehaviourFlag[] = [
  SANDBOX_CONTAINMENT,
  EXEC_SIBLING_CLASSIFICATION,
  NEVER_READABLE,
];

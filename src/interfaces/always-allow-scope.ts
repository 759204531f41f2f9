import type { GrantScope } from '../core/approvals/approval-events.js';
import { relativeInside } from '../core/tools/tool-path.js';
import type { PendingApprovalDetails } from './pending-approval-details.js';

/** Characters a path grant's glob would read as a pattern: such a path cannot be granted exactly. */
const GLOB_SYNTAX = /[*?[\]{}!]/;

/**
 * The scoped grant "always allow this" records for a waiting call: exactly what `correx grant`
 * would be given to cover this call and nothing wider. The exact command line for `exec`; the
 * one path (workspace-relative, as grants match it) for a file tool; the one host for a network
 * call (and for a confined command asked only for network access to one host, that host).
 * Null when no single exact grant covers the call (several paths, a path with glob syntax,
 * a command plus paths), so only a one-time approval is offered.
 */
export function alwaysAllowScope(
  details: PendingApprovalDetails,
  workspaceRoot: string,
): GrantScope | null {
  const { proposal, assessment } = details;
  if (proposal === null || assessment === null) return null;
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(proposal.argsRaw) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (proposal.tool === 'exec') {
    // Asked only for network access to one host (flag egress-asks-to-widen): "always" grants
    // that host, never the command line, so it widens what the sandbox may reach and no more.
    const asked = assessment.findings.filter(
      (finding) => finding.severity !== 'info' || finding.tier === 'T3',
    );
    const hosts = new Set(
      assessment.targets.filter((target) => target.role === 'URL').map((t) => t.resolved),
    );
    if (
      asked.length > 0 &&
      asked.every((finding) => finding.code === 'egress_widen') &&
      hosts.size === 1
    )
      return { kind: 'host', host: [...hosts][0]! };
    // The same line approval grants are matched against (approvalSubjectOf).
    if (typeof args.command === 'string') return { kind: 'command', command: args.command };
    if (Array.isArray(args.argv)) return { kind: 'command', command: JSON.stringify(args.argv) };
    return null;
  }
  const hosts = assessment.targets.filter((target) => target.role === 'URL');
  const paths = assessment.targets.filter(
    (target) => target.role !== 'URL' && target.param !== 'command',
  );
  if (hosts.length > 0) {
    const [first] = hosts;
    return paths.length === 0 && hosts.every((host) => host.resolved === first!.resolved)
      ? { kind: 'host', host: first!.resolved }
      : null;
  }
  if (paths.length !== 1) return null;
  const real = paths[0]!.realPath ?? paths[0]!.resolved;
  const path = relativeInside(real, workspaceRoot) ?? real;
  if (path === '' || GLOB_SYNTAX.test(path)) return null;
  return { kind: 'path', tool: proposal.tool, glob: path };
}

/** A grant scope in words, as `correx grants` lists it. */
export function describeGrantScope(scope: GrantScope): string {
  switch (scope.kind) {
    case 'command':
      return `command: ${scope.command}`;
    case 'path':
      return `${scope.tool} on ${scope.glob}`;
    case 'host':
      return `host: ${scope.host}`;
  }
}

import {
  appendToSession,
  relativeInside
} from "./chunk-OYJRPCLU.js";

// src/interfaces/record-grant.ts
async function recordGrant(recording, store, sessionId, grant) {
  const grantId = `grant-${recording.ids.next()}`;
  const event = await appendToSession(recording, store, sessionId, {
    type: "approval_grant_added",
    grantId,
    scope: grant.scope,
    lifetime: grant.stageId === null ? "session" : "stage",
    stageId: grant.stageId,
    expiresAt: grant.expiresAt,
    by: grant.by,
    reason: grant.reason
  });
  return { grantId, event };
}
var ALWAYS_ALLOW_REASON = "always allow, answered at the approval prompt";

// src/interfaces/always-allow-scope.ts
var GLOB_SYNTAX = /[*?[\]{}!]/;
function alwaysAllowScope(details, workspaceRoot) {
  const { proposal, assessment } = details;
  if (proposal === null || assessment === null) return null;
  let args;
  try {
    args = JSON.parse(proposal.argsRaw);
  } catch {
    return null;
  }
  if (proposal.tool === "exec") {
    const asked = assessment.findings.filter(
      (finding) => finding.severity !== "info" || finding.tier === "T3"
    );
    const hosts2 = new Set(
      assessment.targets.filter((target) => target.role === "URL").map((t) => t.resolved)
    );
    if (asked.length > 0 && asked.every((finding) => finding.code === "egress_widen") && hosts2.size === 1)
      return { kind: "host", host: [...hosts2][0] };
    if (typeof args.command === "string") return { kind: "command", command: args.command };
    if (Array.isArray(args.argv)) return { kind: "command", command: JSON.stringify(args.argv) };
    return null;
  }
  const hosts = assessment.targets.filter((target) => target.role === "URL");
  const paths = assessment.targets.filter(
    (target) => target.role !== "URL" && target.param !== "command"
  );
  if (hosts.length > 0) {
    const [first] = hosts;
    return paths.length === 0 && hosts.every((host) => host.resolved === first.resolved) ? { kind: "host", host: first.resolved } : null;
  }
  if (paths.length !== 1) return null;
  const real = paths[0].realPath ?? paths[0].resolved;
  const path = relativeInside(real, workspaceRoot) ?? real;
  if (path === "" || GLOB_SYNTAX.test(path)) return null;
  return { kind: "path", tool: proposal.tool, glob: path };
}
function describeGrantScope(scope) {
  switch (scope.kind) {
    case "command":
      return `command: ${scope.command}`;
    case "path":
      return `${scope.tool} on ${scope.glob}`;
    case "host":
      return `host: ${scope.host}`;
  }
}

export {
  recordGrant,
  ALWAYS_ALLOW_REASON,
  alwaysAllowScope,
  describeGrantScope
};

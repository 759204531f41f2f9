// src/infrastructure/sandbox/sandbox-availability.ts
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
var DEFAULT_CANDIDATES = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];
var BUBBLEWRAP_NAMESPACE_FLAGS = [
  "--die-with-parent",
  "--new-session",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try"
];
function bubblewrapBaseArgs(userNamespace) {
  return [
    ...bubblewrapNamespaceArgs(userNamespace),
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc"
  ];
}
function bubblewrapNamespaceArgs(userNamespace) {
  return [
    ...BUBBLEWRAP_NAMESPACE_FLAGS,
    ...userNamespace ? ["--unshare-user"] : [],
    "--cap-drop",
    "ALL"
  ];
}
async function detectSandbox(options = {}) {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux")
    return { kind: "none", reason: `bubblewrap needs Linux namespaces; this is ${platform}` };
  const bwrapPath = (options.candidates ?? DEFAULT_CANDIDATES).find((path) => executable(path));
  if (bwrapPath === void 0)
    return {
      kind: "none",
      reason: "bubblewrap (bwrap) is not installed; on Debian/Ubuntu: apt-get install bubblewrap"
    };
  const probe = (user) => run(bwrapPath, [...bubblewrapBaseArgs(user), "--tmpfs", "/tmp", "true"]);
  const withUser = await probe(true);
  const withoutUser = withUser.ok ? withUser : await probe(false);
  if (!withoutUser.ok)
    return {
      kind: "none",
      reason: `${bwrapPath} cannot create namespaces here (${withoutUser.output.trim() || "no output"})`
    };
  const version = await run(bwrapPath, ["--version"]);
  return {
    kind: "bubblewrap",
    bwrapPath,
    version: version.output.trim() || "unknown",
    userNamespace: withUser.ok
  };
}
function describeSandbox(availability, unsandboxedExecTier = "T3") {
  return availability.kind === "bubblewrap" ? `commands run sandboxed (${availability.version}: read-only host, writable workspace, private home and /tmp, no network except the egress allowlist through correx's proxy)` : `commands run UNSANDBOXED: ${availability.reason}. Every exec is raised to approval tier ${unsandboxedExecTier}.`;
}
function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
function run(file, args) {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: { PATH: "/usr/bin:/bin" }, timeout: 1e4 },
      (error, stdout, stderr) => resolve({ ok: error === null, output: `${stdout}${stderr}` })
    );
  });
}

export {
  bubblewrapNamespaceArgs,
  detectSandbox,
  describeSandbox
};

import {
  gitPathsOf,
  linkedGitDirectories
} from "./chunk-OMD473OS.js";
import {
  bubblewrapNamespaceArgs
} from "./chunk-32WDO2ZJ.js";
import {
  hostAllowed,
  matchGlob
} from "./chunk-COPIES7C.js";
import {
  SANDBOX_PRIVATE_FOLDERS
} from "./chunk-A7ITNCWT.js";

// src/infrastructure/sandbox/bubblewrap-profile.ts
import { lstatSync as lstatSync3 } from "node:fs";
import { basename as basename2, dirname as dirname2, isAbsolute as isAbsolute2, join as join4, relative as relative3 } from "node:path";

// src/infrastructure/sandbox/read-view.ts
import { existsSync, lstatSync as lstatSync2, readlinkSync as readlinkSync2, realpathSync, statSync as statSync2 } from "node:fs";
import { basename, dirname, isAbsolute, join as join3, relative as relative2, resolve, sep } from "node:path";

// src/infrastructure/sandbox/etc-view.ts
import {
  chmodSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync as readdirSync2,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from "node:fs";
import { tmpdir } from "node:os";
import { join as join2 } from "node:path";

// src/infrastructure/sandbox/never-readable-files.ts
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
var NEVER_READABLE_SCAN_LIMIT = 5e4;
function findNeverReadableFiles(workspaceRoot, patterns, limit = NEVER_READABLE_SCAN_LIMIT) {
  const globs = patterns.filter((pattern) => !pattern.startsWith("~") && !pattern.startsWith("/"));
  if (globs.length === 0) return [];
  return scanFiles(workspaceRoot, limit, (path) => {
    const subject = relative(workspaceRoot, path);
    return globs.some((glob) => matchGlob(glob, subject, { foldCase: true }));
  });
}
function findNeverReadableFilesUnder(root, patterns, homeDirectory, limit = NEVER_READABLE_SCAN_LIMIT, onFolder) {
  if (patterns.length === 0) return [];
  const fold = { foldCase: true };
  const matchers = patterns.map((pattern) => {
    const name = lastSegmentMatcher(pattern);
    const full = (path) => {
      if (pattern.startsWith("~/")) {
        const rel = relative(homeDirectory, path);
        return !rel.startsWith("..") && matchGlob(pattern.slice(2), rel, fold);
      }
      if (pattern.startsWith("/")) return matchGlob(pattern.slice(1), path.slice(1), fold);
      return matchGlob(pattern, relative(root, path), fold) || matchGlob(pattern, path.slice(1), fold);
    };
    return (path, base) => (name === null || name.test(base)) && full(path);
  });
  return scanFiles(
    root,
    limit,
    (path, base) => matchers.some((matches) => matches(path, base)),
    onFolder
  );
}
function lastSegmentMatcher(pattern) {
  const last = pattern.split("/").at(-1) ?? "";
  if (last === "**" || last === "") return null;
  const body = [...last.normalize("NFC")].map((c) => c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")).join("");
  return new RegExp(`^${body}$`, "i");
}
function scanFiles(root, limit, matches, onFolder) {
  const found = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0 && seen < limit) {
    const dir = pending.pop();
    onFolder?.(dir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen += 1;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git") pending.push(path);
      } else if (entry.isFile() && matches(path, entry.name)) {
        found.push(path);
      }
    }
  }
  return found.sort();
}

// src/infrastructure/sandbox/etc-view.ts
var preparedViews = /* @__PURE__ */ new Set();
var cleanupRegistered = false;
function prepareEtcView(request) {
  let parent = null;
  try {
    parent = mkdtempSync(join2(viewParent(request.etc), "correx-etc-view-"));
    const path = join2(parent, "etc");
    const copies = /* @__PURE__ */ new Map();
    const emptyFiles = new Set(request.emptyFiles);
    const emptyFolders = new Set(request.emptyFolders);
    const modes = [];
    let seen = 0;
    const copyFolder = (source, target, mode) => {
      mkdirSync(target, { mode: 448 });
      modes.push([target, mode]);
      if (emptyFolders.has(source)) return;
      let entries;
      try {
        entries = readdirSync2(source, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (++seen > NEVER_READABLE_SCAN_LIMIT) throw new Error("etc is too large to prepare");
        const from = join2(source, entry.name);
        const to = join2(target, entry.name);
        const stat = lstatSync(from, { bigint: true });
        if (entry.isDirectory()) copyFolder(from, to, Number(stat.mode & 0o7777n));
        else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
        else if (entry.isFile() && emptyFiles.has(from))
          writeFileSync(to, "", { mode: Number(stat.mode & 0o666n) });
        else if (entry.isFile()) copyFile(from, to, stat.mtimeNs, copies);
      }
    };
    copyFolder(request.etc, path, Number(statSync(request.etc).mode & 4095));
    for (const [folder, mode] of modes.reverse()) chmodSync(folder, mode);
    preparedViews.add(parent);
    registerCleanup();
    return { path, copies };
  } catch {
    if (parent !== null) removeTree(parent);
    return null;
  }
}
function copiesUnchanged(view) {
  for (const [file, mtime] of view.copies)
    if (statSync(file, { bigint: true, throwIfNoEntry: false })?.mtimeNs !== mtime) return false;
  return true;
}
function copyFile(from, to, mtime, copies) {
  try {
    linkSync(from, to);
    return;
  } catch {
  }
  try {
    copyFileSync(from, to);
    chmodSync(to, lstatSync(from).mode & 4095);
    copies.set(from, mtime);
  } catch {
    rmSync(to, { force: true });
  }
}
function viewParent(etc) {
  const device = statSync(etc).dev;
  const candidates = [tmpdir(), "/var/tmp"];
  return candidates.find((dir) => statSync(dir, { throwIfNoEntry: false })?.dev === device) ?? tmpdir();
}
function registerCleanup() {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  process.once("exit", () => {
    for (const parent of preparedViews) removeTree(parent);
  });
}
function removeTree(path) {
  try {
    chmodTree(path);
    rmSync(path, { recursive: true, force: true });
  } catch {
  }
}
function chmodTree(folder) {
  chmodSync(folder, 448);
  for (const entry of readdirSync2(folder, { withFileTypes: true }))
    if (entry.isDirectory()) chmodTree(join2(folder, entry.name));
}

// src/infrastructure/sandbox/read-view.ts
var SYSTEM_READABLE_FOLDERS = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/sys",
  "/var/lib/dpkg",
  "/var/lib/rpm"
];
var ETC_SECRET_FOLDERS = [
  "ssl/private",
  "pki/tls/private",
  "credstore",
  "credstore.encrypted",
  "NetworkManager/system-connections",
  "wireguard",
  "ipsec.d/private"
];
var ETC_SECRET_FILES = [
  "shadow",
  "shadow-",
  "gshadow",
  "gshadow-",
  "security/opasswd",
  "ssh/*_key",
  "krb5.keytab",
  "ppp/*-secrets",
  "**/*credentials*"
];
var ETC_TRUST_STORES = ["ssl/certs", "pki/ca-trust", "pki/tls/certs", "ca-certificates"];
var TOOLCHAIN_SECRET_FILES = ["credentials", "credentials.toml", ".npmrc", ".netrc", ".pypirc"];
function buildHostReadView(input) {
  const systemFolders = input.systemFolders ?? SYSTEM_READABLE_FOLDERS;
  const systemArgs = [];
  const shown = [];
  const hidden = [];
  for (const folder of systemFolders) {
    const stat = lstatOrNull(folder);
    if (stat === null) continue;
    if (stat.isSymbolicLink() && dirname(folder) === "/") {
      systemArgs.push("--symlink", readlinkSync2(folder), folder);
    } else if (stat.isDirectory()) {
      systemArgs.push("--ro-bind", folder, folder);
      shown.push(folder);
    }
  }
  const cover = (args, path) => {
    const stat = lstatOrNull(path);
    if (stat === null || hidden.includes(path)) return;
    if (stat.isDirectory()) args.push("--tmpfs", path, "--remount-ro", path);
    else if (stat.isFile()) args.push("--ro-bind", "/dev/null", path);
    else return;
    hidden.push(path);
  };
  for (const etc of shown.filter((folder) => basename(folder) === "etc")) {
    const state = etcState(etc, [...ETC_SECRET_FILES, ...input.neverReadable], input.homeDirectory);
    const bind = systemArgs.findIndex(
      (arg, index) => arg === "--ro-bind" && systemArgs[index + 1] === etc
    );
    if (state.view !== null && bind >= 0) {
      systemArgs[bind + 1] = state.view.path;
      for (const path of [...state.folders, ...state.files])
        if (!hidden.includes(path)) hidden.push(path);
    } else {
      for (const folder of state.folders) cover(systemArgs, folder);
      for (const file of state.files) cover(systemArgs, file);
    }
  }
  const grantArgs = [];
  const granted = [];
  const visible = (real) => shown.some((dir) => inside(real, dir)) || granted.some((dir) => inside(real, dir));
  const grant = (path) => {
    if (!existsSync(path)) return null;
    const real = realpathSync(path);
    if (real === "/" || visible(real)) return null;
    grantArgs.push("--ro-bind", real, real);
    granted.push(real);
    const named = resolve(path);
    if (named !== real && !visible(named)) {
      grantArgs.push("--ro-bind", real, named);
      granted.push(named);
    }
    return real;
  };
  for (const path of input.readablePaths) {
    const real = grant(expandHome(path, input.homeDirectory));
    if (real === null) continue;
    for (const file of findNeverReadableFilesUnder(real, input.neverReadable, input.homeDirectory))
      cover(grantArgs, file);
  }
  const repositories = [...input.repositoryPaths ?? []].sort((a, b) => a.length - b.length);
  for (const path of repositories) grant(path);
  const programDirs = [...input.searchPath.split(":"), dirname(process.execPath)];
  for (const dir of programDirs.filter((entry) => isAbsolute(entry) && existsSync(entry))) {
    const folder = toolchainFolder(resolve(dir), input);
    if (folder === null || grant(folder) === null) continue;
    for (const name of TOOLCHAIN_SECRET_FILES) cover(grantArgs, join3(folder, name));
  }
  return { systemArgs, grantArgs, granted, hidden };
}
var etcScans = /* @__PURE__ */ new Map();
var ETC_SCAN_RECHECK_MS = 2e3;
function etcState(etc, globs, home) {
  const related = home !== "" && (inside(etc, home) || inside(home, etc));
  const key = JSON.stringify([etc, globs, related ? home : null]);
  const now = Date.now();
  const cached = etcScans.get(key);
  if (cached?.key === key && statOrNull(etc)?.mtimeNs === cached.scanned.get(etc)) {
    if (now - cached.checkedAt < ETC_SCAN_RECHECK_MS) return cached;
    if (unchanged(cached.scanned) && (cached.view === null || copiesUnchanged(cached.view))) {
      cached.checkedAt = now;
      return cached;
    }
  }
  const scanned = /* @__PURE__ */ new Map();
  const matching = findNeverReadableFilesUnder(etc, globs, home, void 0, (folder) => {
    const stat = statOrNull(folder);
    if (stat !== null) scanned.set(folder, stat.mtimeNs);
  });
  const folders = ETC_SECRET_FOLDERS.map((folder) => join3(etc, folder)).filter(
    (folder) => lstatOrNull(folder)?.isDirectory()
  );
  const kept = [...folders, ...ETC_TRUST_STORES.map((folder) => join3(etc, folder))];
  const files = matching.filter(
    (file) => !kept.some((folder) => inside(file, folder)) && lstatOrNull(file)?.isFile()
  );
  const view = prepareEtcView({ etc, emptyFiles: files, emptyFolders: folders });
  const scan = { key, scanned, folders, files, view, checkedAt: now };
  etcScans.delete(key);
  etcScans.set(key, scan);
  if (etcScans.size > 8) etcScans.delete(etcScans.keys().next().value);
  return scan;
}
function unchanged(folders) {
  for (const [folder, mtime] of folders) if (statOrNull(folder)?.mtimeNs !== mtime) return false;
  return true;
}
function statOrNull(path) {
  return statSync2(path, { bigint: true, throwIfNoEntry: false }) ?? null;
}
function toolchainFolder(dir, input) {
  const holds = (folder) => [input.homeDirectory, input.workspaceRoot].some(
    (path) => typeof path === "string" && path !== "" && inside(path, folder)
  );
  const prefix = dirname(dir);
  const tooWide = prefix === "/" || dirname(prefix) === "/" || holds(prefix);
  if (["bin", "sbin", "shims"].includes(basename(dir)) && !tooWide) return prefix;
  return dir === "/" || holds(dir) ? null : dir;
}
function expandHome(path, home) {
  if (path === "~") return home;
  return path.startsWith("~/") ? join3(home, path.slice(2)) : path;
}
function inside(path, dir) {
  const rel = relative2(dir, path);
  return rel === "" || !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}
function lstatOrNull(path) {
  try {
    return lstatSync2(path);
  } catch {
    return null;
  }
}

// src/infrastructure/sandbox/bubblewrap-profile.ts
var SANDBOX_PROXY_SOCKET = "/tmp/.correx-egress.sock";
function buildBubblewrapProfile(input) {
  const view = buildHostReadView({
    workspaceRoot: input.workspaceRoot,
    homeDirectory: input.homeDirectory,
    searchPath: input.searchPath,
    readablePaths: input.readablePaths,
    neverReadable: input.neverReadable ?? [],
    repositoryPaths: linkedGitDirectories(input.workspaceRoot),
    ...input.systemFolders === void 0 ? {} : { systemFolders: input.systemFolders }
  });
  const args = [
    ...bubblewrapNamespaceArgs(input.userNamespace),
    ...view.systemArgs,
    "--dev",
    "/dev",
    "--proc",
    "/proc"
  ];
  const hidden = [...view.hidden];
  const hide = (path) => {
    if (hidden.includes(path) || !isDirectory(path) || path === "/") return;
    args.push("--tmpfs", path);
    hidden.push(path);
  };
  for (const path of SANDBOX_PRIVATE_FOLDERS) hide(path);
  hide("/run");
  hide(input.homeDirectory);
  for (const path of input.hiddenPaths) hide(path);
  args.push(...view.grantArgs);
  args.push("--bind", input.workspaceRoot, input.workspaceRoot);
  const readOnly = [];
  for (const path of protectedWorkspacePaths(input.workspaceRoot, input.neverWritable)) {
    const stat = lstatOrNull2(path);
    if (stat !== null && !stat.isSymbolicLink()) {
      args.push("--ro-bind", path, path);
      readOnly.push(path);
    } else if (stat === null && basename2(path) === "hooks" && isDirectory(dirname2(path))) {
      args.push("--tmpfs", path, "--remount-ro", path);
      readOnly.push(path);
    }
  }
  for (const path of gitPathsOf(input.workspaceRoot)) {
    if (readOnly.includes(path)) continue;
    args.push("--ro-bind", path, path);
    readOnly.push(path);
  }
  for (const path of input.emptiedFiles ?? []) {
    const stat = lstatOrNull2(path);
    if (stat === null || !stat.isFile()) continue;
    args.push("--ro-bind", "/dev/null", path);
    hidden.push(path);
  }
  if (input.proxySocket !== null) args.push("--bind", input.proxySocket, SANDBOX_PROXY_SOCKET);
  args.push("--remount-ro", "/", "--chdir", input.cwd, "--");
  return {
    command: input.bwrapPath,
    args,
    profile: {
      kind: "bubblewrap",
      network: input.proxySocket === null ? "none" : "proxy",
      writable: [input.workspaceRoot],
      readOnly,
      hidden,
      granted: [...view.granted],
      allowedHosts: input.proxySocket === null ? [] : [...input.allowedHosts],
      reason: null
    }
  };
}
function protectedWorkspacePaths(workspaceRoot, neverWritable) {
  const paths = [];
  for (const pattern of neverWritable) {
    if (pattern.startsWith("~")) continue;
    const literal = pattern.endsWith("/**") ? pattern.slice(0, -3) : pattern;
    if (literal === "" || /[*?[\]{}]/.test(literal)) continue;
    const absolute = isAbsolute2(literal) ? literal : join4(workspaceRoot, literal);
    if (absolute !== workspaceRoot && inside2(absolute, workspaceRoot) && !paths.includes(absolute))
      paths.push(absolute);
  }
  return paths;
}
function inside2(path, dir) {
  const rel = relative3(dir, path);
  return rel === "" || !rel.startsWith("..") && !isAbsolute2(rel);
}
function isDirectory(path) {
  return lstatOrNull2(path)?.isDirectory() ?? false;
}
function lstatOrNull2(path) {
  try {
    return lstatSync3(path);
  } catch {
    return null;
  }
}

// src/infrastructure/sandbox/egress-forwarder-script.ts
var EGRESS_FORWARDER_SCRIPT = `
'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [socketPath, program, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const proxy = 'http://127.0.0.1:' + server.address().port;
  const env = { ...process.env, NO_PROXY: '', no_proxy: '', NODE_USE_ENV_PROXY: '1' };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = proxy;
    env[name.toLowerCase()] = proxy;
  }
  const child = spawn(program, args, { stdio: 'inherit', env });
  child.on('error', (error) => {
    process.stderr.write('correx sandbox: cannot start ' + program + ': ' + error.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    process.exit(code !== null ? code : 128 + (constants.signals[signal] || 0));
  });
});
`;

// src/infrastructure/sandbox/egress-proxy.ts
import { lookup as dnsLookup } from "node:dns/promises";
import { createServer, request as httpRequest } from "node:http";
import { BlockList, connect, isIP } from "node:net";
var NEVER = new BlockList();
NEVER.addSubnet("0.0.0.0", 8, "ipv4");
NEVER.addSubnet("169.254.0.0", 16, "ipv4");
NEVER.addSubnet("224.0.0.0", 3, "ipv4");
NEVER.addAddress("::", "ipv6");
NEVER.addSubnet("fe80::", 10, "ipv6");
NEVER.addSubnet("ff00::", 8, "ipv6");
var LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");
async function startEgressProxy(options) {
  const resolve2 = options.resolve ?? resolveWithSystem;
  const idleTimeoutMs = options.idleTimeoutMs ?? 3e5;
  const folded = /* @__PURE__ */ new Map();
  const sockets = /* @__PURE__ */ new Set();
  const record = (host, port, allowed, reason) => {
    const key = JSON.stringify([host, port, allowed, reason]);
    const existing = folded.get(key);
    folded.set(
      key,
      existing ? { ...existing, count: existing.count + 1 } : { host, port, allowed, reason, count: 1 }
    );
  };
  const decide = async (host, port) => {
    const verdict = await judge(host, port);
    record(host, port, verdict.allowed, verdict.reason);
    return verdict;
  };
  const judge = async (host, port) => {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return { allowed: false, reason: "invalid port" };
    if (!hostAllowed(host, options.allowlist))
      return { allowed: false, reason: "not on the egress allowlist" };
    let addresses;
    try {
      addresses = isIP(host) === 0 ? await resolve2(host) : [host];
    } catch {
      return { allowed: false, reason: "the name does not resolve" };
    }
    const namesLoopback = host === "localhost" || host.startsWith("127.");
    for (const address2 of addresses) {
      const family = isIP(address2) === 6 ? "ipv6" : "ipv4";
      if (NEVER.check(address2, family))
        return {
          allowed: false,
          reason: `resolves to ${address2}, a reserved or link-local address`
        };
      if (!namesLoopback && LOOPBACK.check(address2, family))
        return { allowed: false, reason: `resolves to ${address2}, a loopback address` };
    }
    const address = addresses[0];
    if (address === void 0) return { allowed: false, reason: "the name does not resolve" };
    return { allowed: true, address, reason: "on the egress allowlist" };
  };
  const server = createServer((request, response) => {
    void (async () => {
      const target = absoluteHttpTarget(request);
      if (target === null) {
        record("", 0, false, "not an absolute http:// request");
        response.writeHead(400, { "content-type": "text/plain" }).end("correx egress proxy: send absolute http:// URLs\n");
        return;
      }
      const verdict = await decide(target.hostname, Number(target.port || 80));
      if (!verdict.allowed) {
        response.writeHead(403, { "content-type": "text/plain" }).end(`correx egress proxy: ${target.hostname} refused: ${verdict.reason}
`);
        return;
      }
      const headers = { ...request.headers };
      for (const name of Object.keys(headers)) if (name.startsWith("proxy-")) delete headers[name];
      const upstream = httpRequest(
        {
          host: verdict.address,
          port: Number(target.port || 80),
          method: request.method,
          path: `${target.pathname}${target.search}`,
          headers,
          setHost: false,
          timeout: idleTimeoutMs
        },
        (reply) => {
          response.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(response);
        }
      );
      upstream.on("error", (error) => {
        if (!response.headersSent)
          response.writeHead(502, { "content-type": "text/plain" }).end(`correx egress proxy: ${error.message}
`);
        else response.destroy();
      });
      request.pipe(upstream);
    })();
  });
  server.on("connect", (request, client, head) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    void (async () => {
      const target = authority(request.url ?? "");
      if (target === null) {
        record(request.url ?? "", 0, false, "not a host:port authority");
        client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
        return;
      }
      const verdict = await decide(target.host, target.port);
      if (!verdict.allowed) {
        client.end(
          `HTTP/1.1 403 Forbidden\r
content-type: text/plain\r
\r
correx egress proxy: ${target.host} refused: ${verdict.reason}
`
        );
        return;
      }
      const upstream = connect({ host: verdict.address, port: target.port });
      sockets.add(upstream);
      upstream.setTimeout(idleTimeoutMs, () => upstream.destroy());
      upstream.on("close", () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
      upstream.once("connect", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
    })();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((ready, fail) => {
    server.once("error", fail);
    server.listen(options.socketPath, () => {
      server.off("error", fail);
      ready();
    });
  });
  return {
    socketPath: options.socketPath,
    decisions: () => [...folded.values()],
    close: () => new Promise((done) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => done());
    })
  };
}
async function resolveWithSystem(host) {
  const results = await dnsLookup(host, { all: true, verbatim: false });
  return results.map((result) => result.address);
}
function absoluteHttpTarget(request) {
  try {
    const url = new URL(request.url ?? "");
    return url.protocol === "http:" && url.username === "" && url.password === "" ? url : null;
  } catch {
    return null;
  }
}
function authority(text) {
  const match = /^([a-z0-9.-]+):(\d{1,5})$/i.exec(text);
  if (match === null) return null;
  return { host: match[1].toLowerCase(), port: Number(match[2]) };
}

export {
  findNeverReadableFiles,
  SANDBOX_PROXY_SOCKET,
  buildBubblewrapProfile,
  EGRESS_FORWARDER_SCRIPT,
  startEgressProxy
};

import {
  contentDigests,
  gitChangedPaths
} from "./chunk-7FCCLOU5.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  provenanceFacts
} from "./chunk-OYJRPCLU.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/provenance/dsse-envelope.ts
import { createHash, sign, verify } from "node:crypto";
import { z } from "zod";
var IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";
var DsseEnvelopeSchema = z.object({
  payload: z.string(),
  payloadType: z.string(),
  signatures: z.array(z.object({ keyid: z.string().optional(), sig: z.string() })).min(1)
});
var AttestationUnreadableError = class extends CorrexError {
  constructor(message, options) {
    super("attestation_unreadable", message, options);
  }
};
function preAuthenticationEncoding(payloadType, body) {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, "utf8"),
    type,
    Buffer.from(` ${body.length} `, "utf8"),
    body
  ]);
}
function keyIdOf(publicKey) {
  return createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex");
}
function signEnvelope(body, payloadType, privateKey, keyid) {
  const sig = sign(null, preAuthenticationEncoding(payloadType, body), privateKey);
  return {
    payload: body.toString("base64"),
    payloadType,
    signatures: [{ keyid, sig: sig.toString("base64") }]
  };
}
function parseEnvelope(text, file) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new AttestationUnreadableError(`${file} is not JSON: ${error.message}`, {
      cause: error
    });
  }
  const result = DsseEnvelopeSchema.safeParse(data);
  if (!result.success)
    throw new AttestationUnreadableError(
      `${file} is not a DSSE envelope (payload, payloadType, signatures[].sig)`
    );
  return result.data;
}
function verifyEnvelope(envelope, publicKey) {
  const body = Buffer.from(envelope.payload, "base64");
  const message = preAuthenticationEncoding(envelope.payloadType, body);
  return envelope.signatures.some((signature) => {
    try {
      return verify(null, message, publicKey, Buffer.from(signature.sig, "base64"));
    } catch {
      return false;
    }
  });
}

// src/infrastructure/provenance/session-statement.ts
var STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
var CORREX_PREDICATE_TYPE = "https://correx.dev/provenance/session/v1";
function buildSessionStatement(options) {
  const { facts, tree } = options;
  const git = tree.kind === "git" ? {
    branch: tree.branch,
    baseRef: tree.baseRef,
    baseCommit: tree.baseCommit,
    commit: tree.commit,
    tree: tree.tree
  } : null;
  const subject = git !== null ? [{ name: git.branch, digest: { gitCommit: git.commit, gitTree: git.tree } }] : facts.changes.files.filter((file) => file.sha256 !== null).map((file) => ({ name: file.path, digest: { sha256: file.sha256 } }));
  subject.push({
    name: `correx-changes:${facts.session.id}`,
    digest: { sha256: facts.changes.sha256 }
  });
  const { kernel, ...rest } = facts;
  return {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: CORREX_PREDICATE_TYPE,
    predicate: {
      correx: {
        version: options.correxVersion,
        kernelVersion: kernel.version,
        flags: kernel.flags
      },
      ...rest,
      git,
      log: options.head
    }
  };
}
function expectedFromLog(facts, head) {
  const { kernel, ...rest } = facts;
  return { kernelVersion: kernel.version, flags: kernel.flags, ...rest, log: head };
}
function statedLogFacts(predicate) {
  const { correx, git: _git, ...rest } = predicate;
  const stated = typeof correx === "object" && correx !== null ? correx : {};
  return { kernelVersion: stated.kernelVersion, flags: stated.flags, ...rest };
}
function jsonDifferences(stated, actual, path = "predicate", limit = 20, found = []) {
  if (found.length >= limit) return found;
  if (Array.isArray(stated) && Array.isArray(actual)) {
    if (stated.length !== actual.length)
      found.push(`${path}: the statement has ${stated.length} entries, the log ${actual.length}`);
    const length = Math.min(stated.length, actual.length);
    for (let index = 0; index < length; index++)
      jsonDifferences(stated[index], actual[index], `${path}[${index}]`, limit, found);
    return found;
  }
  if (isObject(stated) && isObject(actual)) {
    const keys = [.../* @__PURE__ */ new Set([...Object.keys(stated), ...Object.keys(actual)])].sort();
    for (const key of keys)
      jsonDifferences(stated[key], actual[key], `${path}.${key}`, limit, found);
    return found;
  }
  if (JSON.stringify(stated) !== JSON.stringify(actual))
    found.push(`${path}: the statement says ${short(stated)}, the log says ${short(actual)}`);
  return found;
}
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function short(value) {
  const text = JSON.stringify(value) ?? "nothing";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

// src/infrastructure/provenance/verify-attestation.ts
var isObject2 = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
function decodeStatement(envelope) {
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return { problem: `payloadType is ${envelope.payloadType}, not ${IN_TOTO_PAYLOAD_TYPE}` };
  let statement;
  try {
    statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8"));
  } catch {
    return { problem: "the payload is not JSON" };
  }
  if (!isObject2(statement)) return { problem: "the payload is not a JSON object" };
  if (statement._type !== STATEMENT_TYPE)
    return { problem: `_type is ${String(statement._type)}, not ${STATEMENT_TYPE}` };
  if (statement.predicateType !== CORREX_PREDICATE_TYPE)
    return {
      problem: `predicateType is ${String(statement.predicateType)}, not ${CORREX_PREDICATE_TYPE}`
    };
  if (!isObject2(statement.predicate) || !Array.isArray(statement.subject))
    return { problem: "the statement has no predicate object or no subject list" };
  return { statement };
}
function statedSessionId(statement) {
  const predicate = statement.predicate;
  const session = predicate.session;
  return isObject2(session) && typeof session.id === "string" ? session.id : null;
}
function verifyAttestation(input) {
  const items = [];
  const decoded = decodeStatement(input.envelope);
  if ("problem" in decoded) {
    items.push({ what: "statement", status: "failed", detail: decoded.problem });
    return { ok: false, sessionId: null, items };
  }
  const statement = decoded.statement;
  const predicate = statement.predicate;
  const sessionId = statedSessionId(statement);
  items.push({
    what: "statement",
    status: "ok",
    detail: `in-toto Statement v1 about session ${sessionId ?? "?"}`
  });
  if (input.publicKey === null)
    items.push({
      what: "signature",
      status: "unchecked",
      detail: "no public key given (--public-key)"
    });
  else if (verifyEnvelope(input.envelope, input.publicKey))
    items.push({
      what: "signature",
      status: "ok",
      detail: `signed by key ${keyIdOf(input.publicKey).slice(0, 16)}`
    });
  else
    items.push({
      what: "signature",
      status: "failed",
      detail: `no signature over this payload verifies with key ${keyIdOf(input.publicKey).slice(0, 16)} (the statement or its signature was changed, or another key signed it)`
    });
  items.push(...checkLog(input.log, statement, predicate));
  items.push(...checkTree(input.tree, statement, predicate));
  return { ok: items.every((item) => item.status !== "failed"), sessionId, items };
}
function checkLog(log, statement, predicate) {
  if ("missing" in log)
    return [
      { what: "log", status: "unchecked", detail: `the log's head: ${log.missing}` },
      {
        what: "predicate",
        status: "unchecked",
        detail: `the predicate's facts (approvals, checks, configuration, changes): ${log.missing}`
      }
    ];
  const { chain } = log;
  if (!chain.ok)
    return [
      {
        what: "log",
        status: "failed",
        detail: `the log's hash chain breaks at sequence ${chain.sequence}: ${chain.detail}`
      },
      {
        what: "predicate",
        status: "unchecked",
        detail: "the predicate cannot be compared with a broken log"
      }
    ];
  const items = [];
  const stated = isObject2(predicate.log) ? predicate.log : {};
  if (stated.headHash !== chain.headHash || stated.events !== chain.lastSequence)
    items.push({
      what: "log",
      status: "failed",
      detail: `the log's head differs: the statement says ${String(stated.headHash).slice(0, 16)} after ${String(stated.events)} events, the log has ${chain.headHash.slice(0, 16)} after ${chain.lastSequence}`
    });
  else
    items.push({
      what: "log",
      status: "ok",
      detail: `head ${chain.headHash.slice(0, 16)} after ${chain.lastSequence} events`
    });
  const facts = provenanceFacts(log.events, nodeSha256);
  const differences = jsonDifferences(
    statedLogFacts(predicate),
    expectedFromLog(facts, { headHash: chain.headHash, events: chain.lastSequence })
  );
  const changes = statement.subject.find(
    (entry) => isObject2(entry) && typeof entry.name === "string" && entry.name.startsWith("correx-changes:")
  );
  const statedChanges = isObject2(changes?.digest) ? changes.digest.sha256 : void 0;
  if (statedChanges !== facts.changes.sha256)
    differences.push(
      `subject correx-changes: the statement says ${String(statedChanges).slice(0, 16)}, the log's changes digest to ${facts.changes.sha256.slice(0, 16)}`
    );
  items.push(
    differences.length === 0 ? { what: "predicate", status: "ok", detail: "every fact matches the log" } : { what: "predicate", status: "failed", detail: differences.join("; ") }
  );
  return items;
}
function checkTree(tree, statement, predicate) {
  if (tree === null || tree.kind === "absent")
    return [
      {
        what: "tree",
        status: "unchecked",
        detail: `the tree: the workspace ${tree?.path ?? "(unknown)"} is not at hand`
      }
    ];
  const subject = statement.subject.filter(isObject2);
  const git = isObject2(predicate.git) ? predicate.git : null;
  if (tree.kind === "git") {
    if (git === null)
      return [
        {
          what: "tree",
          status: "failed",
          detail: "the statement names no git commit, but the session has a worktree"
        }
      ];
    const differences2 = [];
    if (git.commit !== tree.commit || git.tree !== tree.tree) {
      const files2 = (() => {
        try {
          return gitChangedPaths(tree.location, String(git.commit), tree.commit);
        } catch {
          return [];
        }
      })();
      differences2.push(
        `${tree.branch} is at ${tree.commit.slice(0, 12)} (tree ${tree.tree.slice(0, 12)}), the statement names ${String(git.commit).slice(0, 12)} (tree ${String(git.tree).slice(0, 12)})${files2.length > 0 ? `; files that differ: ${files2.join(", ")}` : ""}`
      );
    }
    for (const path of tree.uncommitted)
      differences2.push(`${path} changed in the worktree and not committed`);
    return [
      differences2.length === 0 ? {
        what: "tree",
        status: "ok",
        detail: `${tree.branch} is at ${tree.commit.slice(0, 12)}, as stated`
      } : { what: "tree", status: "failed", detail: differences2.join("; ") }
    ];
  }
  const files = subject.filter(
    (entry) => typeof entry.name === "string" && !entry.name.startsWith("correx-changes:")
  );
  const now = contentDigests(
    tree,
    files.map((entry) => String(entry.name))
  );
  const differences = files.filter(
    (entry) => (isObject2(entry.digest) ? entry.digest.sha256 : void 0) !== now.get(String(entry.name))
  ).map((entry) => `${String(entry.name)} differs from the statement's digest`);
  return [
    differences.length === 0 ? { what: "tree", status: "ok", detail: `${files.length} file(s) in ${tree.path} as stated` } : { what: "tree", status: "failed", detail: differences.join("; ") }
  ];
}

export {
  IN_TOTO_PAYLOAD_TYPE,
  AttestationUnreadableError,
  keyIdOf,
  signEnvelope,
  parseEnvelope,
  buildSessionStatement,
  decodeStatement,
  statedSessionId,
  verifyAttestation
};

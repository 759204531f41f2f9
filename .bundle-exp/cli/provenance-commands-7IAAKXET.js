import {
  readSessionEvidence
} from "./chunk-UEQBRJSZ.js";
import {
  AttestationUnreadableError,
  IN_TOTO_PAYLOAD_TYPE,
  buildSessionStatement,
  decodeStatement,
  keyIdOf,
  parseEnvelope,
  signEnvelope,
  statedSessionId,
  verifyAttestation
} from "./chunk-LUZIHC3V.js";
import "./chunk-7FCCLOU5.js";
import "./chunk-Y6YTVGPA.js";
import {
  formatJson
} from "./chunk-5MQ6PZFE.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import "./chunk-XFVAXZIU.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import {
  canonicalJson
} from "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/provenance-commands.ts
import { createHash } from "node:crypto";
import { readFileSync as readFileSync2, writeFileSync as writeFileSync2 } from "node:fs";
import { join as join2, resolve as resolve2 } from "node:path";
import { Command } from "commander";

// src/infrastructure/provenance/signing-key.ts
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync
} from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
var SigningKeyError = class extends CorrexError {
  constructor(message, options) {
    super("signing_key", message, options);
  }
};
var PRIVATE_KEY_FILE = "correx-signing.key";
var PUBLIC_KEY_FILE = "correx-signing.pub";
function defaultKeyDirectory(correxHome) {
  return join(correxHome, "keys");
}
function generateSigningKey(directory) {
  const folder = resolve(directory);
  const privatePath = join(folder, PRIVATE_KEY_FILE);
  const publicPath = join(folder, PUBLIC_KEY_FILE);
  for (const path of [privatePath, publicPath])
    if (existsSync(path))
      throw new SigningKeyError(`${path} already exists; correx never overwrites a key`);
  mkdirSync(folder, { recursive: true, mode: 448 });
  const pair = generateKeyPairSync("ed25519");
  const privatePem = pair.privateKey.export({ type: "pkcs8", format: "pem" });
  writeFileSync(privatePath, privatePem, { mode: 384, flag: "wx" });
  chmodSync(privatePath, 384);
  writeFileSync(publicPath, pair.publicKey.export({ type: "spki", format: "pem" }), {
    mode: 420,
    flag: "wx"
  });
  return { privateKey: privatePath, publicKey: publicPath, keyid: keyIdOf(pair.publicKey) };
}
function readKeyFile(path) {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new SigningKeyError(
      `cannot read key ${path}: ${error.message} (make one with correx keys generate)`,
      { cause: error }
    );
  }
}
function requireEd25519(key, path) {
  if (key.asymmetricKeyType !== "ed25519")
    throw new SigningKeyError(
      `${path} is a ${key.asymmetricKeyType ?? "non-asymmetric"} key, not Ed25519`
    );
  return key;
}
function readPrivateKey(path) {
  try {
    return requireEd25519(createPrivateKey(readKeyFile(path)), path);
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError(`${path} is not a private key: ${error.message}`, {
      cause: error
    });
  }
}
function readPublicKey(path) {
  const text = readKeyFile(path);
  try {
    const key = text.includes("PRIVATE KEY") ? createPublicKey(createPrivateKey(text)) : createPublicKey(text);
    return requireEd25519(key, path);
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError(`${path} is not a public key: ${error.message}`, {
      cause: error
    });
  }
}

// src/interfaces/cli/commands/provenance-commands.ts
function keysCommand(context) {
  const keys = new Command("keys").description("signing keys for provenance statements");
  keys.command("generate").description(
    `make an Ed25519 key pair (${PRIVATE_KEY_FILE}, readable by you only, and ${PUBLIC_KEY_FILE})`
  ).option("--out <dir>", "where to write them (default: $CORREX_HOME/keys)").action((options) => {
    const made = generateSigningKey(options.out ?? defaultKeyDirectory(context.correxHome));
    context.out(`private key ${made.privateKey} (mode 0600: keep it to yourself)`);
    context.out(`public key  ${made.publicKey} (hand it to whoever verifies)`);
    context.out(`key id      ${made.keyid}`);
  });
  return keys;
}
function attestCommand(context) {
  const attest = new Command("attest").description(
    "write a signed in-toto statement of what a session did (DSSE envelope); `attest verify FILE` checks one"
  ).argument("[session]", SESSION_ARGUMENT).option("--key <file>", `Ed25519 private key (default: $CORREX_HOME/keys/${PRIVATE_KEY_FILE})`).option("--out <file>", "write the envelope here (default: standard output)").action(
    async (typed, options, command) => {
      const keyFile = options.key ?? join2(defaultKeyDirectory(context.correxHome), PRIVATE_KEY_FILE);
      const privateKey = readPrivateKey(keyFile);
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const evidence = await readSessionEvidence(events, sessionId);
        if (!evidence.chain.ok || evidence.facts === null)
          throw new CorrexError(
            "invalid_event",
            `session ${sessionId}'s log does not verify (${evidence.chain.ok ? "unreadable" : `broken at sequence ${evidence.chain.sequence}: ${evidence.chain.detail}`}); correx attests only a log that holds`
          );
        const statement = buildSessionStatement({
          facts: evidence.facts,
          head: { headHash: evidence.chain.headHash, events: evidence.chain.lastSequence },
          tree: evidence.tree ?? { kind: "absent", path: evidence.facts.session.workspace },
          correxVersion: context.version
        });
        const body = Buffer.from(canonicalJson(statement), "utf8");
        const publicKey = readPublicKey(keyFile);
        const envelope = signEnvelope(body, IN_TOTO_PAYLOAD_TYPE, privateKey, keyIdOf(publicKey));
        const text = `${JSON.stringify(envelope)}
`;
        const digest = createHash("sha256").update(body).digest("hex");
        if (options.out === void 0) context.out(text.trimEnd());
        else {
          writeFileSync2(resolve2(options.out), text);
          context.out(`attested session ${sessionId} in ${resolve2(options.out)}`);
          context.out(
            `subject   ${statement.subject.map(
              (entry) => `${entry.name} ${Object.entries(entry.digest).map(([kind, value]) => `${kind}:${value.slice(0, 12)}`).join(" ")}`
            ).join("; ")}`
          );
          context.out(`statement sha256:${digest}`);
        }
      });
    }
  );
  attest.command("verify").description(
    "check a statement's signature, and with the session's log and tree at hand every fact it states"
  ).argument("<file>", "a DSSE envelope written by correx attest").option("--session <id>", "the session to check it against (default: the one it names)").option("--public-key <file>", `public key (default: $CORREX_HOME/keys/${PUBLIC_KEY_FILE})`).option("--key <file>", "a private key file, whose public half is used").option("--json", "print JSON").action(
    async (file, options, command) => {
      let text;
      try {
        text = readFileSync2(resolve2(file), "utf8");
      } catch (error) {
        throw new AttestationUnreadableError(`cannot read ${file}: ${error.message}`, {
          cause: error
        });
      }
      const envelope = parseEnvelope(text, file);
      const keyFile = options.publicKey ?? options.key ?? join2(defaultKeyDirectory(context.correxHome), PUBLIC_KEY_FILE);
      const explicitKey = options.publicKey !== void 0 || options.key !== void 0;
      const publicKey = explicitKey ? readPublicKey(keyFile) : (() => {
        try {
          return readPublicKey(keyFile);
        } catch {
          return null;
        }
      })();
      const decoded = decodeStatement(envelope);
      const sessionId = options.session ?? ("statement" in decoded ? statedSessionId(decoded.statement) : null);
      const report = await (async () => {
        let stores;
        try {
          stores = await context.openStores(
            command.optsWithGlobals().store ?? context.defaultStore
          );
        } catch (error) {
          if (!CorrexError.isInstance(error)) throw error;
          return verifyAttestation({
            envelope,
            publicKey,
            log: { missing: `no store to read the log from (${error.message})` },
            tree: null
          });
        }
        try {
          if (sessionId === null || await stores.events.lastSequence(sessionId) === 0)
            return verifyAttestation({
              envelope,
              publicKey,
              log: { missing: `session ${sessionId ?? "?"} is not in ${stores.location}` },
              tree: null
            });
          const evidence = await readSessionEvidence(stores.events, sessionId);
          return verifyAttestation({
            envelope,
            publicKey,
            log: evidence.events === null ? { events: [], chain: evidence.chain } : { events: evidence.events, chain: evidence.chain },
            tree: evidence.tree
          });
        } finally {
          await stores.close();
        }
      })();
      if (options.json) context.out(formatJson(report));
      else {
        for (const item of report.items)
          context.out(
            `${item.status === "ok" ? "ok       " : item.status === "failed" ? "FAILED   " : "unchecked"} ${item.what}: ${item.detail}`
          );
        context.out(
          report.ok ? `verified${report.items.some((item) => item.status === "unchecked") ? " (with unchecked parts, above)" : ""}` : "NOT verified"
        );
      }
      if (!report.ok) context.fail(1);
    }
  );
  return attest;
}
export {
  attestCommand,
  keysCommand
};

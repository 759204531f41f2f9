import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import {
  IN_TOTO_PAYLOAD_TYPE,
  keyIdOf,
  parseEnvelope,
  signEnvelope,
  AttestationUnreadableError,
} from '../../../infrastructure/provenance/dsse-envelope.js';
import { buildSessionStatement } from '../../../infrastructure/provenance/session-statement.js';
import { readSessionEvidence } from '../../../infrastructure/provenance/session-evidence.js';
import {
  defaultKeyDirectory,
  generateSigningKey,
  PRIVATE_KEY_FILE,
  PUBLIC_KEY_FILE,
  readPrivateKey,
  readPublicKey,
} from '../../../infrastructure/provenance/signing-key.js';
import {
  decodeStatement,
  statedSessionId,
  verifyAttestation,
} from '../../../infrastructure/provenance/verify-attestation.js';
import { canonicalJson } from '../../../core/events/canonical-json.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { withStore } from '../with-store.js';

/** `correx keys generate`: an Ed25519 key pair in files the user keeps. */
export function keysCommand(context: CommandContext): Command {
  const keys = new Command('keys').description('signing keys for provenance statements');
  keys
    .command('generate')
    .description(
      `make an Ed25519 key pair (${PRIVATE_KEY_FILE}, readable by you only, and ${PUBLIC_KEY_FILE})`,
    )
    .option('--out <dir>', 'where to write them (default: $CORREX_HOME/keys)')
    .action((options: { out?: string }) => {
      const made = generateSigningKey(options.out ?? defaultKeyDirectory(context.correxHome));
      context.out(`private key ${made.privateKey} (mode 0600: keep it to yourself)`);
      context.out(`public key  ${made.publicKey} (hand it to whoever verifies)`);
      context.out(`key id      ${made.keyid}`);
    });
  return keys;
}

/** `correx attest <session>` and `correx attest verify <file>`. */
export function attestCommand(context: CommandContext): Command {
  const attest = new Command('attest')
    .description(
      'write a signed in-toto statement of what a session did (DSSE envelope); `attest verify FILE` checks one',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .option('--key <file>', `Ed25519 private key (default: $CORREX_HOME/keys/${PRIVATE_KEY_FILE})`)
    .option('--out <file>', 'write the envelope here (default: standard output)')
    .action(
      async (
        typed: string | undefined,
        options: { key?: string; out?: string },
        command: Command,
      ) => {
        const keyFile =
          options.key ?? join(defaultKeyDirectory(context.correxHome), PRIVATE_KEY_FILE);
        const privateKey = readPrivateKey(keyFile);
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const evidence = await readSessionEvidence(events, sessionId);
          if (!evidence.chain.ok || evidence.facts === null)
            throw new CorrexError(
              'invalid_event',
              `session ${sessionId}'s log does not verify (${evidence.chain.ok ? 'unreadable' : `broken at sequence ${evidence.chain.sequence}: ${evidence.chain.detail}`}); correx attests only a log that holds`,
            );
          const statement = buildSessionStatement({
            facts: evidence.facts,
            head: { headHash: evidence.chain.headHash, events: evidence.chain.lastSequence },
            tree: evidence.tree ?? { kind: 'absent', path: evidence.facts.session.workspace },
            correxVersion: context.version,
          });
          const body = Buffer.from(canonicalJson(statement), 'utf8');
          const publicKey = readPublicKey(keyFile);
          const envelope = signEnvelope(body, IN_TOTO_PAYLOAD_TYPE, privateKey, keyIdOf(publicKey));
          const text = `${JSON.stringify(envelope)}\n`;
          const digest = createHash('sha256').update(body).digest('hex');
          if (options.out === undefined) context.out(text.trimEnd());
          else {
            writeFileSync(resolve(options.out), text);
            context.out(`attested session ${sessionId} in ${resolve(options.out)}`);
            context.out(
              `subject   ${statement.subject
                .map(
                  (entry) =>
                    `${entry.name} ${Object.entries(entry.digest)
                      .map(([kind, value]) => `${kind}:${value.slice(0, 12)}`)
                      .join(' ')}`,
                )
                .join('; ')}`,
            );
            context.out(`statement sha256:${digest}`);
          }
        });
      },
    );
  attest
    .command('verify')
    .description(
      "check a statement's signature, and with the session's log and tree at hand every fact it states",
    )
    .argument('<file>', 'a DSSE envelope written by correx attest')
    .option('--session <id>', 'the session to check it against (default: the one it names)')
    .option('--public-key <file>', `public key (default: $CORREX_HOME/keys/${PUBLIC_KEY_FILE})`)
    .option('--key <file>', 'a private key file, whose public half is used')
    .option('--json', 'print JSON')
    .action(
      async (
        file: string,
        options: { session?: string; publicKey?: string; key?: string; json?: boolean },
        command: Command,
      ) => {
        let text: string;
        try {
          text = readFileSync(resolve(file), 'utf8');
        } catch (error) {
          throw new AttestationUnreadableError(`cannot read ${file}: ${(error as Error).message}`, {
            cause: error,
          });
        }
        const envelope = parseEnvelope(text, file);
        const keyFile =
          options.publicKey ??
          options.key ??
          join(defaultKeyDirectory(context.correxHome), PUBLIC_KEY_FILE);
        const explicitKey = options.publicKey !== undefined || options.key !== undefined;
        const publicKey = explicitKey
          ? readPublicKey(keyFile)
          : (() => {
              try {
                return readPublicKey(keyFile);
              } catch {
                return null;
              }
            })();
        const decoded = decodeStatement(envelope);
        const sessionId =
          options.session ?? ('statement' in decoded ? statedSessionId(decoded.statement) : null);
        const report = await (async () => {
          let stores;
          try {
            stores = await context.openStores(
              (command.optsWithGlobals() as { store?: string }).store ?? context.defaultStore,
            );
          } catch (error) {
            if (!CorrexError.isInstance(error)) throw error;
            return verifyAttestation({
              envelope,
              publicKey,
              log: { missing: `no store to read the log from (${error.message})` },
              tree: null,
            });
          }
          try {
            if (sessionId === null || (await stores.events.lastSequence(sessionId)) === 0)
              return verifyAttestation({
                envelope,
                publicKey,
                log: { missing: `session ${sessionId ?? '?'} is not in ${stores.location}` },
                tree: null,
              });
            const evidence = await readSessionEvidence(stores.events, sessionId);
            return verifyAttestation({
              envelope,
              publicKey,
              log:
                evidence.events === null
                  ? { events: [], chain: evidence.chain }
                  : { events: evidence.events, chain: evidence.chain },
              tree: evidence.tree,
            });
          } finally {
            await stores.close();
          }
        })();
        if (options.json) context.out(formatJson(report));
        else {
          for (const item of report.items)
            context.out(
              `${item.status === 'ok' ? 'ok       ' : item.status === 'failed' ? 'FAILED   ' : 'unchecked'} ${item.what}: ${item.detail}`,
            );
          context.out(
            report.ok
              ? `verified${report.items.some((item) => item.status === 'unchecked') ? ' (with unchecked parts, above)' : ''}`
              : 'NOT verified',
          );
        }
        if (!report.ok) context.fail(1);
      },
    );
  return attest;
}

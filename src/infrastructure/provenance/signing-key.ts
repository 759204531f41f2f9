import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import { keyIdOf } from './dsse-envelope.js';

/** A signing key cannot be made, read or used as asked. */
export class SigningKeyError extends CorrexError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('signing_key', message, options);
  }
}

export const PRIVATE_KEY_FILE = 'correx-signing.key';
export const PUBLIC_KEY_FILE = 'correx-signing.pub';

/** Where `correx keys generate` puts keys by default: `$CORREX_HOME/keys`. */
export function defaultKeyDirectory(correxHome: string): string {
  return join(correxHome, 'keys');
}

/**
 * Makes an Ed25519 key pair as two PEM files the user keeps: the private key readable by its
 * owner only (0600), the public key to hand to whoever verifies. Never overwrites a key.
 */
export function generateSigningKey(directory: string): {
  readonly privateKey: string;
  readonly publicKey: string;
  readonly keyid: string;
} {
  const folder = resolve(directory);
  const privatePath = join(folder, PRIVATE_KEY_FILE);
  const publicPath = join(folder, PUBLIC_KEY_FILE);
  for (const path of [privatePath, publicPath])
    if (existsSync(path))
      throw new SigningKeyError(`${path} already exists; correx never overwrites a key`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const pair = generateKeyPairSync('ed25519');
  const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' });
  writeFileSync(privatePath, privatePem, { mode: 0o600, flag: 'wx' });
  chmodSync(privatePath, 0o600);
  writeFileSync(publicPath, pair.publicKey.export({ type: 'spki', format: 'pem' }), {
    mode: 0o644,
    flag: 'wx',
  });
  return { privateKey: privatePath, publicKey: publicPath, keyid: keyIdOf(pair.publicKey) };
}

function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SigningKeyError(
      `cannot read key ${path}: ${(error as Error).message} (make one with correx keys generate)`,
      { cause: error },
    );
  }
}

function requireEd25519(key: KeyObject, path: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SigningKeyError(
      `${path} is a ${key.asymmetricKeyType ?? 'non-asymmetric'} key, not Ed25519`,
    );
  return key;
}

/** Reads an Ed25519 private key (PEM, PKCS#8). */
export function readPrivateKey(path: string): KeyObject {
  try {
    return requireEd25519(createPrivateKey(readKeyFile(path)), path);
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError(`${path} is not a private key: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Reads an Ed25519 public key, or derives it from a private key file. */
export function readPublicKey(path: string): KeyObject {
  const text = readKeyFile(path);
  try {
    const key = text.includes('PRIVATE KEY')
      ? createPublicKey(createPrivateKey(text))
      : createPublicKey(text);
    return requireEd25519(key, path);
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError(`${path} is not a public key: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

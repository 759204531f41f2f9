import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  keyIdOf,
  parseEnvelope,
  preAuthenticationEncoding,
  signEnvelope,
  verifyEnvelope,
} from './dsse-envelope.js';

describe('DSSE envelopes', () => {
  it('encodes PAE as the protocol says: DSSEv1, then type and body each after its byte length', () => {
    expect(
      preAuthenticationEncoding(
        'http://example.com/HelloWorld',
        Buffer.from('hello world'),
      ).toString(),
    ).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
    // Lengths count bytes, not characters.
    expect(preAuthenticationEncoding('t', Buffer.from('é')).toString()).toBe('DSSEv1 1 t 2 é');
  });

  it('verifies its own Ed25519 signature and refuses a changed payload, type or key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const envelope = signEnvelope(
      Buffer.from('{"a":1}'),
      'application/vnd.in-toto+json',
      privateKey,
      keyIdOf(publicKey),
    );
    expect(verifyEnvelope(envelope, publicKey)).toBe(true);
    expect(
      verifyEnvelope(
        { ...envelope, payload: Buffer.from('{"a":2}').toString('base64') },
        publicKey,
      ),
    ).toBe(false);
    expect(verifyEnvelope({ ...envelope, payloadType: 'application/json' }, publicKey)).toBe(false);
    expect(verifyEnvelope(envelope, generateKeyPairSync('ed25519').publicKey)).toBe(false);
    expect(parseEnvelope(JSON.stringify(envelope), 'x.json')).toEqual(envelope);
    expect(() => parseEnvelope('{"payload":"x"}', 'x.json')).toThrow(
      /x\.json is not a DSSE envelope/,
    );
  });
});

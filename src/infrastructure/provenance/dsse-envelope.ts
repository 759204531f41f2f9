import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { CorrexError } from '../../core/base/correx-error.js';

/** The payload type of an in-toto statement in a DSSE envelope. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** A DSSE JSON envelope (secure-systems-lab/dsse, envelope.md). Unknown fields are ignored. */
export const DsseEnvelopeSchema = z.object({
  payload: z.string(),
  payloadType: z.string(),
  signatures: z.array(z.object({ keyid: z.string().optional(), sig: z.string() })).min(1),
});
export type DsseEnvelope = z.infer<typeof DsseEnvelopeSchema>;

/** A file that should hold a DSSE envelope does not. */
export class AttestationUnreadableError extends CorrexError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('attestation_unreadable', message, options);
  }
}

/**
 * DSSE's pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, the
 * lengths as ASCII decimals of byte counts. Signing this, not the bare body, binds the type.
 */
export function preAuthenticationEncoding(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${body.length} `, 'utf8'),
    body,
  ]);
}

/** The key id a public key is named by: SHA-256 of its SubjectPublicKeyInfo DER. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Signs `body` with an Ed25519 private key into a one-signature envelope. */
export function signEnvelope(
  body: Buffer,
  payloadType: string,
  privateKey: KeyObject,
  keyid: string,
): DsseEnvelope {
  const sig = sign(null, preAuthenticationEncoding(payloadType, body), privateKey);
  return {
    payload: body.toString('base64'),
    payloadType,
    signatures: [{ keyid, sig: sig.toString('base64') }],
  };
}

/** Parses an envelope from a file's text; a bad one is an AttestationUnreadableError. */
export function parseEnvelope(text: string, file: string): DsseEnvelope {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new AttestationUnreadableError(`${file} is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const result = DsseEnvelopeSchema.safeParse(data);
  if (!result.success)
    throw new AttestationUnreadableError(
      `${file} is not a DSSE envelope (payload, payloadType, signatures[].sig)`,
    );
  return result.data;
}

/**
 * Whether one of the envelope's signatures is `publicKey`'s over the PAE of its payload. The key
 * id is a hint only (DSSE: never a security decision), so every signature is tried.
 */
export function verifyEnvelope(envelope: DsseEnvelope, publicKey: KeyObject): boolean {
  const body = Buffer.from(envelope.payload, 'base64');
  const message = preAuthenticationEncoding(envelope.payloadType, body);
  return envelope.signatures.some((signature) => {
    try {
      return verify(null, message, publicKey, Buffer.from(signature.sig, 'base64'));
    } catch {
      return false;
    }
  });
}

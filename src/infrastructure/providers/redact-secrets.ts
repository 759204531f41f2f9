/**
 * Removes credentials from text before it leaves a provider (error messages, event payloads,
 * logs). Known secrets are replaced wherever they occur; bearer tokens and key-shaped strings
 * are masked too, for keys a server echoes back that we were never told about.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out
    .replace(/(bearer\s+)[^\s"',]+/gi, '$1[redacted]')
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, '[redacted]')
    .replace(
      /("?(?:api[-_]?key|x-api-key|authorization)"?\s*[:=]\s*"?)[^\s"',}]+/gi,
      '$1[redacted]',
    );
}

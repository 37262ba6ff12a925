import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks 1.0 (https://www.standardwebhooks.com): the secret is `whsec_` and a base64 key;
// the signature is `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`.

const PREFIX = 'whsec_';

/** A new secret: 32 random bytes. */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** One `v1,<base64>` signature of the message with one secret. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The `webhook-signature` header: a signature per secret, space-separated (the standard's way to
 * roll a secret: a receiver holding either one verifies).
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => sign(secret, id, timestamp, body)).join(' ');
}

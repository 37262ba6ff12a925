import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random string of `[0-9A-Za-z]` from a cryptographic source, without modulo bias. */
export function randomId(length = 10): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would favour the first letters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A secret of 256 random bits, URL-safe. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

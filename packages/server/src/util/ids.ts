import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from a pool that one call to the cryptographic source fills, 4 KiB at a time;
 * each byte is handed out once. A call to the source costs a few microseconds whatever its size,
 * and an import makes an id for every member and an invitation a token for every participant:
 * asked for 20 bytes at a time, the source alone was some 5 % of a 10,000-row import. Node's own
 * `crypto.randomUUID()` keeps such a cache for the same reason.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `length` fresh random bytes, copied out of the pool (never a view of it). */
function randomBytesFromPool(length: number): Buffer {
  if (length > POOL_BYTES) return randomFillSync(Buffer.alloc(length));
  if (used + length > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = Buffer.from(pool.subarray(used, used + length));
  used += length;
  return bytes;
}

/** A random string of `[0-9A-Za-z]` from a cryptographic source, without modulo bias. */
export function randomId(length = 10): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytesFromPool(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would favour the first letters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A secret of 256 random bits, URL-safe. */
export function randomSecret(): string {
  return randomBytesFromPool(32).toString('base64url');
}

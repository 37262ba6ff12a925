import { randomUUID } from 'node:crypto';
import { type CryptoKey, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { nowText } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import {
  findActiveSigningKey,
  findSigningKey,
  insertSigningKey,
  jwkText,
  parseJwk,
} from './auth.repository.js';

export const TOKEN_LIFETIME_SECONDS = 3600;

/** A token that names no signing key of this instance. */
class UnknownKey extends Error {}
const ALG = 'EdDSA';
const ISSUER = 'assay';
// Enough for every live token of a busy instance; past it the cache starts again (a cheap bound).
const VERIFIED_CACHE_SIZE = 10_000;

/** What a verified access token says. */
export interface TokenClaims {
  userId: string;
  clientId: string;
  secretVersion: number;
  scopes: string[];
}

/** What a verified token says besides: its own id (`jti`, what revocation names) and its expiry. */
export interface VerifiedClaims extends TokenClaims {
  tokenId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/** Makes a new Ed25519 key pair and stores it; it signs every token from now on. */
export async function generateSigningKey(db: Kysely<Database>): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
  const kid = randomId(16);
  await insertSigningKey(db, {
    kid,
    alg: ALG,
    private_jwk: jwkText(await exportJWK(privateKey)),
    public_jwk: jwkText(await exportJWK(publicKey)),
    created: nowText(),
    retired: null,
  });
  return kid;
}

/**
 * Signs and verifies access tokens with the instance's keys, which live in the database so that
 * every server process shares them. A key never changes once made, so imported keys are cached by
 * kid; the signing key is looked up again until one exists, so `assay keys generate` takes effect
 * in a running server.
 */
export class TokenService {
  private signing: { kid: string; key: CryptoKey } | undefined;
  private readonly verifying = new Map<string, CryptoKey>();
  private readonly verified = new Map<string, { claims: VerifiedClaims; exp: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  /** Answers undefined while the instance has no key pair. */
  async sign(claims: TokenClaims): Promise<string | undefined> {
    if (!this.signing) {
      const row = await findActiveSigningKey(this.db);
      if (!row) return undefined;
      this.signing = {
        kid: row.kid,
        key: (await importJWK(parseJwk(row.private_jwk), row.alg)) as CryptoKey,
      };
    }
    return new SignJWT({ cid: claims.clientId, sv: claims.secretVersion, scope: claims.scopes.join(' ') })
      .setProtectedHeader({ alg: ALG, kid: this.signing.kid, typ: 'at+jwt' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
      .setJti(randomUUID())
      .sign(this.signing.key);
  }

  /**
   * Answers the claims of a valid, unexpired token, or undefined. A client sends the same token for
   * a block of calls, so a verified signature is remembered by the exact token text until the
   * token expires; revocation is checked by the caller on every call regardless.
   */
  async verify(token: string): Promise<VerifiedClaims | undefined> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Date.now() / 1000) return known.claims;
      this.verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, (header) => this.publicKey(header.kid), {
        issuer: ISSUER,
        algorithms: [ALG],
        typ: 'at+jwt',
      });
      const { sub, cid, sv, scope, exp, jti } = payload;
      if (
        typeof sub !== 'string' ||
        typeof jti !== 'string' ||
        typeof cid !== 'string' ||
        typeof sv !== 'number' ||
        typeof scope !== 'string' ||
        typeof exp !== 'number'
      ) {
        return undefined;
      }
      const claims = {
        userId: sub,
        clientId: cid,
        secretVersion: sv,
        scopes: scope.split(' ').filter(Boolean),
        tokenId: jti,
        expiresAt: exp,
      };
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.clear();
      this.verified.set(token, { claims, exp });
      return claims;
    } catch (error) {
      // Not a token of ours (malformed, expired, badly signed, an unknown key): no claims. A key
      // that cannot be read (the database away) is not the token's fault: it is thrown.
      if (error instanceof errors.JOSEError || error instanceof UnknownKey) return undefined;
      throw error;
    }
  }

  /** The claims of a token verified before and not expired; undefined for any other token. */
  cachedClaims(token: string): VerifiedClaims | undefined {
    const known = this.verified.get(token);
    return known && known.exp > Date.now() / 1000 ? known.claims : undefined;
  }

  private async publicKey(kid: string | undefined): Promise<CryptoKey> {
    if (!kid) throw new UnknownKey('no kid');
    const cached = this.verifying.get(kid);
    if (cached) return cached;
    const row = await findSigningKey(this.db, kid);
    if (!row) throw new UnknownKey('unknown kid');
    const key = (await importJWK(parseJwk(row.public_jwk), row.alg)) as CryptoKey;
    this.verifying.set(kid, key);
    return key;
  }
}

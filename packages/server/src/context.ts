import type { Kysely } from 'kysely';
import type { ClientVersionCache } from './auth/client-cache.js';
import type { FailureLimiter } from './auth/rate-limit.js';
import type { RevokedTokenCache } from './auth/revocations.js';
import type { TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import type { Database, Dialect } from './db/database.js';
import type { VariantRegistry } from './variants/variant.types.js';

/** What every route family is given: the configuration and the shared services. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  tokens: TokenService;
  /** The clients that bearer tokens are checked against, cached while the database says they are current. */
  clients: ClientVersionCache;
  /** The access tokens revoked one by one (RFC 7009), cached likewise. */
  revoked: RevokedTokenCache;
  /** Guesses of client secrets and API keys: the token endpoint, Basic and X-API-Key. */
  limiter: FailureLimiter;
  /**
   * Guesses of passwords on the sign-in page, counted apart: a person mistyping a password must not
   * hold up the machine clients that share their address.
   */
  signInLimiter: FailureLimiter;
  /** The report variants, loaded and validated at start-up. */
  variants: VariantRegistry;
  /** The moment it is: injectable, so that tests drive campaigns and the scheduler without waiting. */
  clock: () => Date;
  /** Wakes the mail and webhook delivery workers after a commit that queued mail or events. */
  mailQueued: () => void;
  /** Wakes the scheduler after a change that may make a campaign due (members added, a campaign changed). */
  campaignsDue: () => void;
}

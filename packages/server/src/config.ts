import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isMailbox } from './util/text.js';

/** The validated, frozen configuration of one Assay process. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** A PostgreSQL URL, or undefined for the embedded SQLite file in `dataDir`. */
  readonly databaseUrl: string | undefined;
  readonly publicUrl: string;
  readonly questionnaireUrl: string;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly variantsDir: string | undefined;
  readonly tickSeconds: number;
  /** How long a mail claimed by a delivery worker is its own before another may take it over. */
  readonly mailLeaseSeconds: number;
  readonly logLevel: string;
  /** Failed token requests one address may make per minute before it is slowed down. */
  readonly tokenFailuresPerMinute: number;
  /** The e-mail of the admin user made at setup. */
  readonly adminEmail: string;
  /** Fastify's `trustProxy`: which proxies' X-Forwarded-For to believe for the caller's address. */
  readonly trustProxy: boolean | number | string[];
  /** A client whose answer has not drained for this long is cut off (its socket destroyed); 0: never. */
  readonly sendTimeoutSeconds: number;
  /** A console session unused for this long ends (the operator signs in again). */
  readonly consoleIdleMinutes: number;
  /** Webhook targets may be loopback, private or link-local addresses (and plain http). */
  readonly webhookAllowPrivate: boolean;
  /** Webhook targets may be plain http (on public addresses, unless private ones are allowed too). */
  readonly webhookAllowHttp: boolean;
  /**
   * Web pages of these origins may call the API, the OAuth endpoints and /mcp from the browser with
   * a token (ASSAY_CORS_ORIGINS, comma-separated; none by default). See http/cross-origin.ts.
   */
  readonly corsOrigins: readonly string[];
  /** RFC 7591 dynamic client registration at /oauth/register (ASSAY_OAUTH_REGISTRATION, on by default). */
  readonly oauthRegistration: boolean;
  /**
   * Answers and personal reports older than this many days are erased by the scheduler
   * (ASSAY_RETENTION_DAYS); null: kept until deleted. A campaign may set a shorter one.
   */
  readonly retentionDays: number | null;
  /** Audit entries older than this many days are removed by the scheduler, once a day. */
  readonly auditRetentionDays: number;
  /**
   * Mails and webhook messages whose delivery ended (sent, failed, captured; delivered, failed)
   * are removed this many days after they were queued (ASSAY_OUTBOX_RETENTION_DAYS).
   */
  readonly outboxRetentionDays: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Values given on the command line; they win over the environment. */
export interface ConfigFlags {
  port?: string;
  host?: string;
  data?: string;
  databaseUrl?: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name}: must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(`${name}: must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(name: string, raw: string | undefined, protocols: string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name}: not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name}: must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw.replace(/\/+$/, '');
}

// A host name (RFC 1123 labels) or an IP address: anything else cannot be listened on.
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function host(raw: string): string {
  if (net.isIP(raw) === 0 && !HOST_NAME.test(raw)) {
    throw new ConfigError(`HOST: not an IP address or a host name: "${raw}"`);
  }
  return raw;
}

function mailbox(name: string, raw: string | undefined, fallback: string): string {
  if (raw === undefined) return fallback;
  if (!isMailbox(raw)) throw new ConfigError(`${name}: must be an e-mail address, got "${raw}"`);
  return raw;
}

/** `Name <address>` or a bare address. */
function sender(raw: string | undefined): string {
  if (raw === undefined) return 'Assay <assay@localhost>';
  const address = /^[^<>]*<([^<>]+)>$/.exec(raw.trim())?.[1] ?? raw.trim();
  if (!isMailbox(address)) {
    throw new ConfigError(`MAIL_FROM: must be "Name <address>" or an address, got "${raw}"`);
  }
  return raw.trim();
}

function folder(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const resolved = path.resolve(raw);
  if (!fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigError(`${name}: no such folder: ${resolved}`);
  }
  return resolved;
}

/** Unset: the connection's address. `true`, a number of hops, or a comma-separated list of addresses and CIDR ranges. */
function trustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return integer('ASSAY_TRUST_PROXY', raw, 0, 1, 100);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const version = net.isIP(address);
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32));
    if (version === 0 || !bitsOk || rest.length > 0) {
      throw new ConfigError(
        `ASSAY_TRUST_PROXY: "${entry}" is not an address or a CIDR range (or use true, or a number of hops)`,
      );
    }
  }
  return entries;
}

/** The longest retention a setting may name: a hundred years, past which "kept" says it better. */
export const MAX_RETENTION_DAYS = 36_500;

/** Unset or empty: kept (null); else a whole number of days, 1 to MAX_RETENTION_DAYS. */
function retentionDays(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  return integer('ASSAY_RETENTION_DAYS', raw, 0, 1, MAX_RETENTION_DAYS);
}

/**
 * Origins (`https://app.example.com`, `http://localhost:6274`): each exactly an origin, as a
 * browser sends it, no path, no `*` (a wildcard would also let any page reach /mcp, which
 * refuses other origins against DNS rebinding).
 */
function origins(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(item);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== item) {
        throw new ConfigError(
          `ASSAY_CORS_ORIGINS: "${item}" is not an origin such as https://app.example.com (scheme, host and port only)`,
        );
      }
      return item;
    });
}

/** A switch: 1/true on, 0/false/unset off. */
function flag(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name}: must be 1 or 0 (true or false), got "${raw}"`);
}

/** An on/off setting with its default. */
function onOff(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name}: must be on or off, got "${raw}"`);
}

/** Reads the configuration from the environment and flags; a bad value throws one clear line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: ConfigFlags = {}): Config {
  const port = integer('PORT', flags.port ?? env.PORT, 8080, 0, 65535);
  const listenHost = host(flags.host ?? env.HOST ?? '0.0.0.0');
  const dataDir = path.resolve(flags.data ?? env.ASSAY_DATA_DIR ?? './data');
  const databaseUrl = url('DATABASE_URL', flags.databaseUrl ?? env.DATABASE_URL, [
    'postgres:',
    'postgresql:',
  ]);
  const publicUrl =
    url('ASSAY_PUBLIC_URL', env.ASSAY_PUBLIC_URL, ['http:', 'https:']) ?? `http://localhost:${port}`;
  const questionnaireUrl =
    url('ASSAY_QUESTIONNAIRE_URL', env.ASSAY_QUESTIONNAIRE_URL, ['http:', 'https:']) ?? publicUrl;
  const smtpUrl = url('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}`);
  return Object.freeze({
    port,
    host: listenHost,
    dataDir,
    databaseUrl,
    publicUrl,
    questionnaireUrl,
    smtpUrl,
    mailFrom: sender(env.MAIL_FROM),
    variantsDir: folder('ASSAY_VARIANTS_DIR', env.ASSAY_VARIANTS_DIR),
    tickSeconds: integer('ASSAY_TICK_SECONDS', env.ASSAY_TICK_SECONDS, 30, 1, 86400),
    mailLeaseSeconds: integer('ASSAY_MAIL_LEASE_SECONDS', env.ASSAY_MAIL_LEASE_SECONDS, 300, 1, 86400),
    logLevel,
    tokenFailuresPerMinute: integer(
      'ASSAY_TOKEN_FAILURES_PER_MINUTE',
      env.ASSAY_TOKEN_FAILURES_PER_MINUTE,
      20,
      1,
      1e6,
    ),
    adminEmail: mailbox('ASSAY_ADMIN_EMAIL', env.ASSAY_ADMIN_EMAIL, 'admin@localhost'),
    trustProxy: trustProxy(env.ASSAY_TRUST_PROXY),
    sendTimeoutSeconds: integer('ASSAY_SEND_TIMEOUT_SECONDS', env.ASSAY_SEND_TIMEOUT_SECONDS, 60, 0, 86400),
    consoleIdleMinutes: integer(
      'ASSAY_CONSOLE_IDLE_MINUTES',
      env.ASSAY_CONSOLE_IDLE_MINUTES,
      8 * 60,
      1,
      30 * 24 * 60,
    ),
    webhookAllowPrivate: flag('ASSAY_WEBHOOK_ALLOW_PRIVATE', env.ASSAY_WEBHOOK_ALLOW_PRIVATE),
    webhookAllowHttp: flag('ASSAY_WEBHOOK_ALLOW_HTTP', env.ASSAY_WEBHOOK_ALLOW_HTTP),
    retentionDays: retentionDays(env.ASSAY_RETENTION_DAYS),
    corsOrigins: origins(env.ASSAY_CORS_ORIGINS),
    oauthRegistration: onOff('ASSAY_OAUTH_REGISTRATION', env.ASSAY_OAUTH_REGISTRATION, true),
    auditRetentionDays: integer(
      'ASSAY_AUDIT_RETENTION_DAYS',
      env.ASSAY_AUDIT_RETENTION_DAYS,
      400,
      1,
      100 * 366,
    ),
    outboxRetentionDays: integer(
      'ASSAY_OUTBOX_RETENTION_DAYS',
      env.ASSAY_OUTBOX_RETENTION_DAYS,
      90,
      1,
      100 * 366,
    ),
  });
}

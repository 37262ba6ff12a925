import path from 'node:path';

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
  readonly logLevel: string;
  /** Failed token requests one address may make per minute before it is slowed down. */
  readonly tokenFailuresPerMinute: number;
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

/** Reads the configuration from the environment and flags; a bad value throws one clear line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: ConfigFlags = {}): Config {
  const port = integer('PORT', flags.port ?? env.PORT, 8080, 0, 65535);
  const host = flags.host ?? env.HOST ?? '0.0.0.0';
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
    host,
    dataDir,
    databaseUrl,
    publicUrl,
    questionnaireUrl,
    smtpUrl,
    mailFrom: env.MAIL_FROM ?? 'Assay <assay@localhost>',
    variantsDir: env.ASSAY_VARIANTS_DIR ? path.resolve(env.ASSAY_VARIANTS_DIR) : undefined,
    tickSeconds: integer('ASSAY_TICK_SECONDS', env.ASSAY_TICK_SECONDS, 30, 1, 86400),
    logLevel,
    tokenFailuresPerMinute: integer(
      'ASSAY_TOKEN_FAILURES_PER_MINUTE',
      env.ASSAY_TOKEN_FAILURES_PER_MINUTE,
      20,
      1,
      1e6,
    ),
  });
}

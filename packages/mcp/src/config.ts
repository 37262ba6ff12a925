import type { AssayClientOptions } from '@assay/client';

/** How the tool server reaches Assay, from the environment. */
export interface McpConfig {
  client: AssayClientOptions;
  /** An API key gives the read tools only. */
  readOnly: boolean;
}

/** A setting that is missing or wrong: printed in one line, and the process exits. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const HELP_ENV =
  'Set ASSAY_URL (the instance address, e.g. http://localhost:8080) and either ASSAY_CLIENT_ID plus ' +
  'ASSAY_CLIENT_SECRET (an OAuth client: every tool), or ASSAY_API_KEY (the read tools only).';

/** Reads ASSAY_URL and the credentials; a ConfigError says what is missing. */
export function configFromEnv(env: NodeJS.ProcessEnv, userAgent: string): McpConfig {
  const url = env.ASSAY_URL?.trim();
  if (!url) throw new ConfigError(`ASSAY_URL is not set. ${HELP_ENV}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`ASSAY_URL is not an address: "${url}". ${HELP_ENV}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`ASSAY_URL must start with http:// or https://, not "${parsed.protocol}".`);
  }
  const clientId = env.ASSAY_CLIENT_ID?.trim();
  const clientSecret = env.ASSAY_CLIENT_SECRET?.trim();
  const apiKey = env.ASSAY_API_KEY?.trim();
  const base = { baseUrl: url, headers: { 'User-Agent': userAgent } };
  if (clientId || clientSecret) {
    if (!clientId || !clientSecret) {
      throw new ConfigError(
        `${clientId ? 'ASSAY_CLIENT_SECRET' : 'ASSAY_CLIENT_ID'} is not set: give both, or ASSAY_API_KEY.`,
      );
    }
    return { client: { ...base, clientId, clientSecret }, readOnly: false };
  }
  if (apiKey) return { client: { ...base, apiKey }, readOnly: true };
  throw new ConfigError(`No credentials. ${HELP_ENV}`);
}

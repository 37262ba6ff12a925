import { Audit } from './families/audit.js';
import { Campaigns } from './families/campaigns.js';
import { Groups } from './families/groups.js';
import { Members } from './families/members.js';
import { Reports } from './families/reports.js';
import { Samples } from './families/samples.js';
import { Settings } from './families/settings.js';
import { Webhooks } from './families/webhooks.js';
import { asIs } from './normalise.js';
import { type AssayClientOptions, Transport } from './transport.js';
import type { TokenData } from './types.js';

/** Options of a call made with `client.request`. */
export interface RequestOptions {
  /** A JSON body. */
  body?: unknown;
  /** Query parameters (undefined ones are left out). */
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

/**
 * The typed client of the Assay API (and of any instance of the same interface). One client holds
 * one access token at a time and shares it between calls; create one per instance and reuse it.
 */
export class AssayClient {
  /** The API base every path is appended to, e.g. `http://localhost:8080/api/v1`. */
  readonly baseUrl: string;
  readonly members: Members;
  readonly groups: Groups;
  readonly campaigns: Campaigns;
  readonly reports: Reports;
  readonly samples: Samples;
  readonly settings: Settings;
  readonly webhooks: Webhooks;
  readonly audit: Audit;
  readonly auth: {
    /**
     * A fresh access token for a family (client credentials only): the one held, or a new one.
     * Calls need no token from here; this is for inspection and for tools of your own.
     */
    token(family?: string): Promise<TokenData>;
    /** Forgets the token held: the next call requests a new one. */
    reset(): void;
  };
  private readonly http: Transport;

  constructor(options: AssayClientOptions) {
    this.http = new Transport(options);
    this.baseUrl = this.http.base;
    this.members = new Members(this.http);
    this.groups = new Groups(this.http, async (memberId) => (await this.members.get(memberId)).groupid);
    this.campaigns = new Campaigns(this.http);
    this.reports = new Reports(this.http);
    this.samples = new Samples(this.http);
    this.settings = new Settings(this.http);
    this.webhooks = new Webhooks(this.http);
    this.audit = new Audit(this.http);
    const http = this.http;
    this.auth = {
      async token(family = 'members') {
        const tokens = http.tokenManager;
        if (!tokens) throw new TypeError('auth.token: only client credentials use access tokens');
        const { token: _token, ...data } = await tokens.acquire(family);
        return data;
      },
      reset() {
        http.tokenManager?.reset();
      },
    };
  }

  /**
   * Any call under the API base, for a path this client has no method for: credentials, retries and
   * errors as for every method; `data` of the JSend envelope returned as sent (not normalised).
   */
  request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const normalised = path.startsWith('/') ? path : `/${path}`;
    return this.http.call<T>(method.toUpperCase(), normalised, asIs, {
      body: options.body === undefined ? undefined : { json: options.body },
      query: options.query,
      signal: options.signal,
    });
  }
}

/** Creates a client: `createClient({ baseUrl, clientId, clientSecret })`, `{ baseUrl, apiKey }` or `{ baseUrl, basic }`. */
export function createClient(options: AssayClientOptions): AssayClient {
  return new AssayClient(options);
}

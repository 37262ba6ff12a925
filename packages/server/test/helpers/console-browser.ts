import { createSignInLink } from '../../src/console/sessions.service.js';
import type { Instance } from './instance.js';

/**
 * An operator's browser for the console, through `inject`: it keeps the cookies the pages set (the
 * session, the sign-in form's token, the language), reads the form token from each page it opens,
 * and posts forms as a browser would. `signIn` uses a one-time link, as the first start prints
 * (its page, then its button).
 */
export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(
    readonly instance: Instance,
    private readonly ip = '127.0.0.1',
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Signs in as a user (the admin by default) through a one-time sign-in link. */
  async signIn(email = 'admin@example.test'): Promise<this> {
    const user = await this.instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const secret = await createSignInLink(this.instance.db.kysely, user.id, new Date());
    // The link's page shows a button; its POST (with the page's form token) signs in.
    const page = await this.get(`/console/sign-in/link/${secret}`);
    if (page.statusCode !== 200) throw new Error(`sign-in link page: ${page.statusCode}`);
    const response = await this.post(`/console/sign-in/link/${secret}`, {});
    if (response.statusCode !== 303) throw new Error(`sign-in link: ${response.statusCode}`);
    await this.get('/console');
    return this;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size === 0
      ? {}
      : { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  private keep(set: string | string[] | undefined) {
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private remember(body: string) {
    const csrf = /name="csrf" value="([^"]+)"/.exec(body);
    if (csrf) this.csrf = csrf[1] as string;
  }

  async get(url: string) {
    const response = await this.instance.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.ip,
      headers: { ...this.headers, ...this.cookieHeader() },
    });
    this.keep(response.headers['set-cookie']);
    this.remember(response.body);
    return response;
  }

  /**
   * Posts a form (URL-encoded, with the page's form token unless `csrf` says otherwise). A field
   * given as a list is sent once per value, as checkboxes are.
   */
  async post(url: string, fields: Record<string, string | string[]>, csrf: string | null = this.csrf) {
    const form = new URLSearchParams();
    if (csrf !== null) form.append('csrf', csrf);
    for (const [name, value] of Object.entries(fields)) {
      for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
    }
    const response = await this.instance.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.ip,
      headers: {
        ...this.headers,
        'content-type': 'application/x-www-form-urlencoded',
        ...this.cookieHeader(),
      },
      payload: form.toString(),
    });
    this.keep(response.headers['set-cookie']);
    this.remember(response.body);
    return response;
  }

  /** Posts a form and follows its redirect (POST, then GET), as a browser does. */
  async submit(url: string, fields: Record<string, string | string[]>) {
    const response = await this.post(url, fields);
    const location = response.headers.location;
    if (response.statusCode === 303 && typeof location === 'string') return this.get(location);
    return response;
  }
}

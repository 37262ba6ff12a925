import type { Instance } from './instance.js';

/**
 * A participant's browser for the server-rendered pages, through `inject`: it keeps the form
 * cookie, reads the form token from each page, and posts forms as a browser would.
 */
export class FormBrowser {
  cookie = '';
  csrf = '';
  constructor(
    private readonly instance: Instance,
    private readonly ip = '127.0.0.1',
  ) {}

  async get(url: string) {
    const response = await this.instance.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.ip,
      headers: this.cookie ? { cookie: this.cookie } : {},
    });
    const set = response.headers['set-cookie'];
    if (set) this.cookie = String(Array.isArray(set) ? set[0] : set).split(';')[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(response.body);
    if (csrf) this.csrf = csrf[1] as string;
    return response;
  }

  async post(url: string, fields: Record<string, string>, csrf = this.csrf) {
    return this.instance.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.ip,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      payload: new URLSearchParams({ csrf, ...fields }).toString(),
    });
  }
}

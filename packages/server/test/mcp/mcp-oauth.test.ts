import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser, deleteClient } from '../../src/auth/auth.service.js';
import { hashPassword } from '../../src/auth/secrets.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

// Issue 22, item 3: an MCP client that knows only the URL. The MCP SDK's own client and its OAuth
// support, pointed at <instance>/mcp alone: it finds the resource metadata, the authorization
// server's, registers itself (RFC 7591), and sends the user to sign in; the test plays the user by
// posting the sign-in form, hands the code back, and the client lists the tools and calls one.

const PUBLIC_URL = 'https://assay.example.test';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const PASSWORD = 'correct horse battery staple';

/** The SDK's provider as an MCP client application keeps its state: in memory here. */
class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test <MCP> client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const htmlDecode = (value: string) =>
  value
    .replaceAll('&#x3D;', '=')
    .replaceAll('&#x2F;', '/')
    .replaceAll('&#x60;', '`')
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

for (const dialect of dialects) {
  describe(`MCP over HTTP with OAuth, the SDK's own client (${dialect})`, () => {
    let instance: Instance;
    let origin: string;
    let userEmail: string;
    const realFetch = globalThis.fetch;
    /** Real HTTP to the listening server for URLs of the configured public address. */
    const http = (url: string | URL, init?: RequestInit) =>
      realFetch(String(url).replace(PUBLIC_URL, origin), init);

    beforeAll(async () => {
      instance = await startInstance(dialect, { env: { ASSAY_PUBLIC_URL: PUBLIC_URL } });
      origin = await instance.app.listen({ port: 0, host: '127.0.0.1' });
      const user = await createUser(
        instance.db.kysely,
        {
          email: 'mcp-user@example.test',
          firstname: 'M',
          lastname: 'User',
        },
        cliActor(),
      );
      userEmail = user.email;
      await instance.db.kysely
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', user.id)
        .execute();
    });
    afterAll(() => instance?.close());

    /** The user's part: open the sign-in page, post its form with the form token; the redirect. */
    async function signIn(url: URL): Promise<URL> {
      const page = await http(url, { redirect: 'manual' });
      expect(page.status).toBe(200);
      const html = await page.text();
      // The page says that the application registered itself and that its name is unchecked.
      expect(html).toContain('registered itself with Assay');
      expect(html).toContain('Test &lt;MCP&gt; client');
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const hidden = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
          m[1],
          htmlDecode(m[2] as string),
        ]),
      );
      expect(hidden.resource).toBe(`${PUBLIC_URL}/mcp`);
      const posted = await http(`${PUBLIC_URL}/api/v1/auth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({
          ...hidden,
          email: userEmail,
          password: PASSWORD,
          decision: 'approve',
        }).toString(),
      });
      expect(posted.status).toBe(303);
      return new URL(posted.headers.get('location') as string);
    }

    it('connects knowing only the URL: discovery, registration, sign-in, tools', async () => {
      const provider = new MemoryProvider();
      const endpoint = new URL(`${PUBLIC_URL}/mcp`);
      const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: http });
      const client = new Client({ name: 'assay-oauth-test', version: '1.0.0' });
      await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

      // It registered itself as a public client, and was sent to the instance's own sign-in page.
      expect(provider.info).toMatchObject({
        client_id: expect.any(String),
        token_endpoint_auth_method: 'none',
        redirect_uris: [REDIRECT],
        client_name: 'Test <MCP> client',
      });
      expect(provider.info && 'client_secret' in provider.info).toBe(false);
      const url = provider.authorizationUrl as URL;
      expect(url.origin + url.pathname).toBe(`${PUBLIC_URL}/api/v1/auth/authorize`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('resource')).toBe(`${PUBLIC_URL}/mcp`);
      // No scope asked (the metadata lists none): the user who allows it gets what their role may use.
      expect(url.searchParams.has('scope')).toBe(false);

      const row = await instance.db.kysely
        .selectFrom('oauth_clients')
        .select(['registration', 'user_id'])
        .where('id', '=', provider.info?.client_id as string)
        .executeTakeFirstOrThrow();
      expect(row.registration).toBe('unclaimed');

      const back = await signIn(url);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      const code = back.searchParams.get('code') as string;
      expect(code).toBeTruthy();
      await first.finishAuth(code);
      expect(provider.saved?.access_token).toEqual(expect.any(String));

      // The user who approved it first owns it now.
      const claimed = await instance.db.kysely
        .selectFrom('oauth_clients')
        .innerJoin('users', 'users.id', 'oauth_clients.user_id')
        .select(['registration', 'users.email'])
        .where('oauth_clients.id', '=', provider.info?.client_id as string)
        .executeTakeFirstOrThrow();
      expect(claimed).toEqual({ registration: 'claimed', email: userEmail });

      const connected = new Client({ name: 'assay-oauth-test', version: '1.0.0' });
      await connected.connect(
        new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: http }),
      );
      const tools = (await connected.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('findMembers');
      expect(tools).toContain('createMember');
      // The user is not an admin: the audit log is not theirs.
      expect(tools).not.toContain('listAuditEntries');
      const result = (await connected.callTool({ name: 'listGroups', arguments: {} })) as CallToolResult;
      expect(result.isError).not.toBe(true);
      await connected.close();

      // Deleting the client (the console's and `assay clients delete`'s service) refuses its token at once.
      await deleteClient(instance.db.kysely, 'operator', provider.info?.client_id as string, cliActor());
      const listTools = () =>
        http(endpoint, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${provider.saved?.access_token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      // On PostgreSQL the change reaches the client cache by a notification: wait for it (bounded by
      // a safety net a busy machine never reaches).
      let refused = await listTools();
      for (const until = Date.now() + 20_000; refused.status !== 401 && Date.now() < until; )
        refused = await listTools();
      expect(refused.status).toBe(401);
    });
  });
}

import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createClient, updateClientScopes } from '../../src/auth/auth.service.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const READ_TOOLS = [
  'findMembers',
  'getMember',
  'listGroups',
  'getGroup',
  'listCampaigns',
  'getCampaign',
  'listReports',
  'getReport',
  'getVerbatims',
  'summarizeReports',
  'listVariants',
  'getQuestions',
  'listAuditEntries',
];

for (const dialect of dialects) {
  describe(`MCP at /mcp (${dialect})`, () => {
    let instance: Instance;
    let endpoint: URL;
    const clients: Client[] = [];

    beforeAll(async () => {
      instance = await startInstance(dialect);
      await instance.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = instance.app.server.address() as AddressInfo;
      endpoint = new URL(`http://127.0.0.1:${port}/mcp`);
    });
    afterAll(async () => {
      for (const client of clients) await client.close();
      await instance?.close();
    });

    /** The MCP SDK's own client over Streamable HTTP, sending these headers with every request. */
    async function connect(headers: Record<string, string>) {
      const client = new Client({ name: 'assay-http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
      clients.push(client);
      return client;
    }
    const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
    const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const rpc = (body: string, headers: Record<string, string> = {}) =>
      fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });

    it('describes itself as an OAuth protected resource of the instance (RFC 9728)', async ({ expect }) => {
      const publicUrl = instance.config.publicUrl;
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
      ]) {
        const answer = await instance.inject({ method: 'GET', url: path });
        expect(answer.statusCode, path).toBe(200);
        expect(answer.json).toEqual({
          resource: `${publicUrl}/mcp`,
          authorization_servers: [publicUrl],
          bearer_methods_supported: ['header'],
          resource_name: 'Assay MCP',
          resource_documentation: `${publicUrl}/api/docs`,
        });
      }
    });

    it('answers 401 pointing at that metadata without credentials, and with wrong ones', async ({
      expect,
    }) => {
      const metadata = `resource_metadata="${instance.config.publicUrl}/.well-known/oauth-protected-resource/mcp"`;
      const bare = await rpc(initialize);
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toBe(`Bearer ${metadata}`);
      expect(await bare.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
      for (const headers of <Record<string, string>[]>[
        { authorization: 'Bearer not-a-token' },
        { 'x-api-key': 'wrong' },
      ]) {
        const wrong = await rpc(initialize, headers);
        expect(wrong.status).toBe(401);
        expect(wrong.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", ${metadata}`);
      }
      await expect(connect({})).rejects.toThrow();
    });

    it('offers every tool to a token with every scope, and the tools act as its client', async ({
      expect,
    }) => {
      const client = await connect({ authorization: `Bearer ${await instance.token()}` });
      expect(await toolNames(client)).toHaveLength(23);
      const address = email('mcp');
      const created = await call(client, 'createMember', {
        email: address,
        firstName: 'Mona',
        lastName: 'Http',
      });
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
      const row = await instance.db.kysely
        .selectFrom('members')
        .select(['id', 'firstname'])
        .where('email', '=', address)
        .executeTakeFirstOrThrow();
      expect(row.firstname).toBe('Mona');
      const read = await call(client, 'getMember', { memberId: row.id });
      expect(read.structuredContent).toMatchObject({ memberId: row.id, email: address });
      const variants = await call(client, 'listVariants');
      expect(JSON.stringify(variants.structuredContent)).toContain('bigfive');
      const audit = await call(client, 'listAuditEntries', { limit: 5, resource: 'member' });
      expect(audit.isError, JSON.stringify(audit.content)).toBeFalsy();
      expect(Array.isArray((audit.structuredContent as { entries: unknown[] }).entries)).toBe(true);
      const refused = await call(client, 'listAuditEntries', { limit: 0 });
      expect(refused.isError).toBe(true);
    });

    it("offers the tools the token's scopes cover, and names the missing scope", async ({ expect }) => {
      const client = await connect({ authorization: `Bearer ${await instance.token('members')}` });
      expect(await toolNames(client)).toEqual([
        'findMembers',
        'getMember',
        'createMember',
        'updateMember',
        'importMembers',
      ]);
      await expect(call(client, 'listGroups')).rejects.toThrow(
        'Unknown tool: listGroups (it needs the scope "groups", which these credentials lack)',
      );
    });

    it('offers only the read tools to an API key, and they read', async ({ expect }) => {
      const client = await connect({ 'x-api-key': await instance.apiKey() });
      expect(await toolNames(client)).toEqual(READ_TOOLS);
      const groups = await call(client, 'listGroups');
      expect(groups.isError, JSON.stringify(groups.content)).toBeFalsy();
      await expect(
        call(client, 'createMember', { email: email(), firstName: 'A', lastName: 'B' }),
      ).rejects.toThrow('it changes data, and this server only reads: these credentials are read-only');
    });

    it('refuses other web origins, other methods and bodies that are not JSON-RPC in JSON', async ({
      expect,
    }) => {
      const authorization = `Bearer ${await instance.token()}`;
      const foreign = await rpc(initialize, { authorization, origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toMatchObject({ error: { code: -32000 } });
      const own = await rpc(initialize, { authorization, origin: new URL(instance.config.publicUrl).origin });
      expect(own.status).toBe(200);
      expect(await own.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { serverInfo: { name: 'assay' } },
      });

      for (const method of ['GET', 'DELETE']) {
        const answer = await fetch(endpoint, { method, headers: { authorization } });
        expect(answer.status, method).toBe(405);
        expect(answer.headers.get('allow')).toBe('POST');
      }
      const broken = await rpc('{"jsonrpc": "2.0", ', { authorization });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
      const form = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization, 'content-type': 'text/plain' },
        body: initialize,
      });
      expect(form.status).toBe(415);
      const huge = await rpc(
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'x', params: { pad: 'x'.repeat(2 ** 21) } }),
        {
          authorization,
        },
      );
      expect(huge.status).toBe(413);
      expect(await huge.json()).toMatchObject({ error: { code: -32600 } });
      // The instance is still serving.
      expect((await rpc(initialize, { authorization })).status).toBe(200);
    });

    it('stops honouring a token when its client gets a new secret', async ({ expect }) => {
      const { user_id } = await instance.db.kysely
        .selectFrom('oauth_clients')
        .select('user_id')
        .where('id', '=', instance.client.client_id)
        .executeTakeFirstOrThrow();
      const other = await createClient(
        instance.db.kysely,
        {
          name: 'MCP test',
          userId: user_id,
          scopes: ['settings'],
        },
        cliActor(),
      );
      const token = await instance.clientToken(other, 'settings');
      expect((await rpc(initialize, { authorization: `Bearer ${token}` })).status).toBe(200);
      await updateClientScopes(instance.db.kysely, 'operator', other.client_id, undefined, cliActor());
      const after = await rpc(initialize, { authorization: `Bearer ${token}` });
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

/** `assay clients list|delete` with a client that registered itself (RFC 7591). */
describe.each(dialects)('assay clients list|delete with a registered client (%s)', (dialect) => {
  let instance: Instance;
  const where = () => [
    '--data',
    instance.config.dataDir,
    ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
  ];

  beforeAll(async () => {
    instance = await startInstance(dialect);
  });
  afterAll(() => instance?.close());

  it('lists it marked as registered and deletes it like any other', async () => {
    const answer = await instance.inject({
      method: 'POST',
      url: '/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ redirect_uris: ['https://agent.example.test/cb'], client_name: 'Agent' }),
    });
    const id = answer.json.client_id as string;
    const list = await runAssay(['clients', 'list', ...where()]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(
      `${id}  Agent  [members groups campaigns reports settings samples webhooks audit]  (registered, unclaimed)\n`,
    );
    const json = JSON.parse((await runAssay(['clients', 'list', '--json', ...where()])).stdout) as {
      client_id: string;
      registration: string | null;
    }[];
    expect(json.find((client) => client.client_id === id)?.registration).toBe('unclaimed');
    expect(json.filter((client) => client.client_id !== id).map((client) => client.registration)).toEqual([
      null,
    ]);

    const deleted = await runAssay(['clients', 'delete', id, ...where()]);
    expect([deleted.code, deleted.stderr]).toEqual([0, '']);
    const after = JSON.parse((await runAssay(['clients', 'list', '--json', ...where()])).stdout) as {
      client_id: string;
    }[];
    expect(after.map((client) => client.client_id)).not.toContain(id);
  });
});
